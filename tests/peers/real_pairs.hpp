// The real sequence pairs every peer test draws from: SwissProt proteins and EMBL DNA from
// Debian's emboss-test, extracted with seqret at test time (nothing is committed).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "peer_env.hpp"

namespace dpviz::peers {

struct RealPair {
    std::string label;  // used in test names: letters, digits and '_'
    std::string what;   // what the two sequences are, for docs and messages
    bool protein = false;
    std::pair<Seq, Seq> load() const;  // query, target (throws when a peer fails)

    // The recipe: an entry is "swiss:ID" or "embl:FILE:ID", optionally with "@BEGIN-END"
    // (1-based, inclusive).
    std::string query_entry, target_entry;
};

// Every pair, in the order docs/peers.md lists them.
const std::vector<RealPair>& real_pairs();
const RealPair& real_pair(const std::string& label);

}  // namespace dpviz::peers
