// Value-or-error return type for every fallible library call.
// Library code never prints or exits: it returns an Error that the CLI/GUI turns into a message and exit code.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dpviz {

// The kind decides the CLI exit code (see app/exit_codes.hpp and the README).
enum class ErrorKind {
    usage,     // bad option or parameter combination      -> exit 2
    input,     // unreadable or malformed input data        -> exit 3
    resource,  // memory, overflow bound, output file       -> exit 4
    device,    // GPU missing or faulted (callers fall back) -> exit 5
    cancelled, // the caller cancelled the run (RunControl): no result, no fallback
};

struct Error {
    ErrorKind kind = ErrorKind::input;
    std::string message;  // one line, no trailing newline
};

inline Error usage_error(std::string m) { return {ErrorKind::usage, std::move(m)}; }
inline Error input_error(std::string m) { return {ErrorKind::input, std::move(m)}; }
inline Error resource_error(std::string m) { return {ErrorKind::resource, std::move(m)}; }
inline Error device_error(std::string m) { return {ErrorKind::device, std::move(m)}; }
inline Error cancelled_error(std::string m = "cancelled") { return {ErrorKind::cancelled, std::move(m)}; }

template <class T>
class Expected {
public:
    Expected(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
    Expected(Error error) : v_(std::move(error)) {}      // NOLINT: implicit by design

    bool has_value() const { return v_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

// For calls that only succeed or fail.
struct Ok {};
using Status = Expected<Ok>;

}  // namespace dpviz

// Evaluates a Status or Expected<T>; on failure returns its Error from the enclosing function
// (which returns Status or Expected<U>).
#define DPVIZ_TRY(expr)                                              \
    do {                                                             \
        if (auto dpviz_try_ = (expr); !dpviz_try_) return dpviz_try_.error(); \
    } while (0)
