#pragma once
// Reads the public Mooncake trace with plain C++ (engine tests have no Qt and so no store
// readers): the keys the engine uses, nothing else.
#include "engine/serving/trace.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace headroom::test {

inline int64_t integerAfter(const std::string &line, const std::string &key)
{
    const size_t at = line.find("\"" + key + "\":");
    REQUIRE(at != std::string::npos);
    return std::stoll(line.substr(at + key.size() + 3));
}

// {"timestamp": ms, "input_length": n, "output_length": n, "hash_ids": [..]} per line.
inline std::vector<engine::TraceRequest> readMooncake(const std::string &path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<engine::TraceRequest> requests;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        engine::TraceRequest r;
        r.timestampS = double(integerAfter(line, "timestamp")) / 1000.0;
        r.promptTokens = integerAfter(line, "input_length");
        r.outputTokens = integerAfter(line, "output_length");
        size_t at = line.find('[', line.find("\"hash_ids\""));
        const size_t end = line.find(']', at);
        while (++at < end) {
            size_t used = 0;
            r.blockHashes.push_back(std::stoll(line.substr(at), &used));
            at += used; // now at ',' or ']'
        }
        requests.push_back(r);
    }
    return requests;
}

} // namespace headroom::test
