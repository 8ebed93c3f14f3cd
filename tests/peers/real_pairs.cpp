// The catalogue of real pairs: related and unrelated proteins of 140 to 3000 residues, and DNA
// from mRNAs of 1.5 kb to 20 kb stretches of the human beta-globin locus (EMBL U01317).
#include "real_pairs.hpp"

#include <stdexcept>

namespace dpviz::peers {
namespace {

Seq load_entry(const std::string& entry) {
    std::string spec = entry;
    int begin = 0, end = 0;
    if (const auto at = spec.find('@'); at != std::string::npos) {
        const std::string range = spec.substr(at + 1);
        spec = spec.substr(0, at);
        begin = std::stoi(range.substr(0, range.find('-')));
        end = std::stoi(range.substr(range.find('-') + 1));
    }
    Seq s;
    if (spec.rfind("swiss:", 0) == 0) {
        s = swiss(spec.substr(6));
    } else if (spec.rfind("embl:", 0) == 0) {
        const std::string rest = spec.substr(5);
        s = embl(rest.substr(0, rest.find(':')), rest.substr(rest.find(':') + 1));
    } else {
        throw std::runtime_error("bad entry " + entry);
    }
    return begin ? segment(s, begin, end) : s;
}

}  // namespace

std::pair<Seq, Seq> RealPair::load() const { return {load_entry(query_entry), load_entry(target_entry)}; }

const std::vector<RealPair>& real_pairs() {
    // U01317 (73,308 bp): HBE1 at 19289, HBG2 at 34478, HBG1 at 39414 (the gamma-globin
    // duplication, 4,936 bp apart), HBD at 54740, HBB at 62137.
    static const std::vector<RealPair> all = {
        // Proteins (EBLOSUM62 / BLOSUM62).
        {"globins", "HBA_HUMAN (142) x HBB_HUMAN (147), alpha and beta globin", true,
         "swiss:HBA_HUMAN", "swiss:HBB_HUMAN"},
        {"actins", "ACTB1_TAKRU (375) x ACTS_OREMO (377), beta and skeletal actin", true,
         "swiss:ACTB1_TAKRU", "swiss:ACTS_OREMO"},
        {"flavodoxins", "FLAV_ANASO (170) x FLAV_DESVH (148), long- and short-chain flavodoxin", true,
         "swiss:FLAV_ANASO", "swiss:FLAV_DESVH"},
        {"opsins", "OPSD_HUMAN (348) x OPS2_DROME (381), human and fly rhodopsin", true,
         "swiss:OPSD_HUMAN", "swiss:OPS2_DROME"},
        {"pax", "PAX6_HUMAN (422) x PAX2_HUMAN (417), paired-box proteins", true,
         "swiss:PAX6_HUMAN", "swiss:PAX2_HUMAN"},
        {"lac_unrelated", "LACI_ECOLI (360) x LACY_ECOLI (417), unrelated", true,
         "swiss:LACI_ECOLI", "swiss:LACY_ECOLI"},
        {"kilo_unrelated", "HIRA_TAKRU (1025) x BGAL_ECOLI (1024), unrelated", true,
         "swiss:HIRA_TAKRU", "swiss:BGAL_ECOLI"},
        {"huntingtin_ubr5", "HD_TAKRU (3148) x UBR5_RAT (2788), unrelated, the longest", true,
         "swiss:HD_TAKRU", "swiss:UBR5_RAT"},
        // DNA (EDNAFULL / NUC.4.4).
        {"rhodopsin_mrna", "L07770 Xenopus rhodopsin mRNA (1684) x Z46957 rat rhodopsin mRNA (1493)", false,
         "embl:vrt.dat:L07770", "embl:rod.dat:Z46957"},
        {"rhodopsin_octopus", "X07797 octopus rhodopsin mRNA (1675) x L07770 Xenopus rhodopsin mRNA (1684)", false,
         "embl:inv.dat:X07797", "embl:vrt.dat:L07770"},
        {"gamma_globins", "U01317 33001-37000 (HBG2) x 37937-41936 (HBG1), the gamma-globin duplication (4000 x 4000)",
         false, "embl:hum1.dat:U01317@33001-37000", "embl:hum1.dat:U01317@37937-41936"},
        {"lacz_operon", "V00296 lacZ gene (3078) x J01636 lac operon (7477)", false,
         "embl:pro.dat:V00296", "embl:pro.dat:J01636"},
        {"rhodopsin_gene", "L07770 Xenopus rhodopsin mRNA (1684) x U23808 its gene (8914)", false,
         "embl:vrt.dat:L07770", "embl:vrt.dat:U23808"},
        {"epsilon_globin", "V00508 epsilon-globin gene (3919) x U01317 17001-23000, its locus (6000)", false,
         "embl:hum1.dat:V00508", "embl:hum1.dat:U01317@17001-23000"},
        {"delta_beta", "U01317 52501-58500 (HBD) x 59898-65897 (HBB), 6000 x 6000", false,
         "embl:hum1.dat:U01317@52501-58500", "embl:hum1.dat:U01317@59898-65897"},
        {"globin_locus_20kb", "U01317 28001-48000 (HBG2, HBG1) x 48001-68000 (HBD, HBB), 20 kb x 20 kb", false,
         "embl:hum1.dat:U01317@28001-48000", "embl:hum1.dat:U01317@48001-68000"},
    };
    return all;
}

const RealPair& real_pair(const std::string& label) {
    for (const auto& p : real_pairs())
        if (p.label == label) return p;
    throw std::runtime_error("no real pair " + label);
}

}  // namespace dpviz::peers
