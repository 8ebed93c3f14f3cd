#!/usr/bin/python3
"""Viterbi decoding by pomegranate (Debian's python3-pomegranate 0.14), for dpviz's peer test
tests/peers/pomegranate_test.cpp. Run with /usr/bin/python3, whose packages Debian's is for.

  pomegranate_viterbi.py CASES.json

CASES.json: {"cases": [{"name", "states": [names], "alphabet": "symbols", "start": [S],
"transition": [[S] x S], "emission": [[K] x S], "observations": "symbols"}, ...]}.
Prints one line per case: NAME <tab> LOG_PROBABILITY <tab> STATE NAMES (space-separated), or
"-" for no path (pomegranate's -inf, None for impossible observations). The log-probability is
Python's repr, exact to the last bit. pomegranate's path starts with the model's silent start
state (and ends with its end state when the model has one); those are not states of the model
here and are left out. bake() orders states by name, so states are reported by name.
"""
import json
import sys

from pomegranate import DiscreteDistribution, HiddenMarkovModel, State


def build(case):
    model = HiddenMarkovModel(case["name"])
    states = []
    for name, row in zip(case["states"], case["emission"]):
        emission = {symbol: p for symbol, p in zip(case["alphabet"], row)}
        states.append(State(DiscreteDistribution(emission), name=name))
    model.add_states(states)
    # Zero probabilities are edges that do not exist (pomegranate would prune them in bake()).
    for state, p in zip(states, case["start"]):
        if p > 0:
            model.add_transition(model.start, state, p)
    for source, row in zip(states, case["transition"]):
        for target, p in zip(states, row):
            if p > 0:
                model.add_transition(source, target, p)
    model.bake()
    return model


def decode(case):
    model = build(case)
    log_probability, path = model.viterbi(list(case["observations"]))
    names = [state.name for _, state in path or [] if state.distribution is not None]
    return log_probability, names


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)["cases"]
    for case in cases:
        log_probability, names = decode(case)
        print("%s\t%r\t%s" % (case["name"], float(log_probability), " ".join(names) or "-"))


if __name__ == "__main__":
    main()
