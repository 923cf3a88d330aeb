#pragma once
// The public traces (Alibaba GPU cluster, Azure LLM inference, Mooncake) live outside the
// repository, in HEADROOM_SHARED_DATA (see the README). A test that reads them starts with
// SKIP_WITHOUT_PUBLIC_TRACES("sub/folder"): when that folder is absent the test says
// "SKIPPED: public traces not found at …" and ends, and CTest reports it as skipped
// (tests/CMakeLists.txt sets SKIP_REGULAR_EXPRESSION); with the traces present it runs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

namespace headroom::test {

inline std::string publicTracesPath(const char *sub)
{
    return std::string(HEADROOM_SHARED_DATA) + "/" + sub;
}

inline bool publicTracesPresent(const char *sub)
{
    std::error_code ec;
    return std::filesystem::is_directory(publicTracesPath(sub), ec);
}

} // namespace headroom::test

#define SKIP_WITHOUT_PUBLIC_TRACES(sub)                                                      \
    do {                                                                                     \
        if (!headroom::test::publicTracesPresent(sub)) {                                     \
            WARN("SKIPPED: public traces not found at " << headroom::test::publicTracesPath(sub) \
                 << " (set HEADROOM_SHARED_DATA; see the README)");                          \
            return;                                                                          \
        }                                                                                    \
    } while (false)
