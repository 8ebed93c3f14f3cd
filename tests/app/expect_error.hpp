// Test helper shared by the reader tests: an Expected that must be an error of a given kind
// whose one-line message names every given part.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dpviz/expected.hpp"

namespace dpviz::app {

template <class T>
testing::AssertionResult fails_with(const Expected<T>& r, ErrorKind kind, const std::vector<std::string>& parts) {
    if (r) return testing::AssertionFailure() << "succeeded, expected an error";
    const std::string& msg = r.error().message;
    if (r.error().kind != kind)
        return testing::AssertionFailure() << "error kind " << int(r.error().kind) << ", expected " << int(kind)
                                           << ": " << msg;
    if (msg.find('\n') != std::string::npos) return testing::AssertionFailure() << "multi-line message: " << msg;
    for (const auto& p : parts)
        if (msg.find(p) == std::string::npos)
            return testing::AssertionFailure() << "message \"" << msg << "\" lacks \"" << p << "\"";
    return testing::AssertionSuccess();
}

}  // namespace dpviz::app
