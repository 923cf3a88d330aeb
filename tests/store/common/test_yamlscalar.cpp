// The quoting rule of the Kubernetes YAML exports: every text comes back from a YAML reader
// as the same string, whichever YAML version the reader speaks.
#include "store/common/yamlscalar.h"

#include "engine/common/errors.h"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <regex>
#include <string>
#include <vector>

using namespace headroom;

namespace {

// Implicit resolution of a plain scalar by a YAML 1.1 reader (yaml.org/type: bool, null, int,
// float, timestamp, merge, value) and by a YAML 1.2 core-schema reader. True when either
// would read `plain` as anything but a string.
bool resolvesToNonString(const std::string &plain)
{
    static const std::vector<std::regex> yaml11 = {
        std::regex("y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"),
        std::regex("~|null|Null|NULL|"),
        std::regex("[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                   "|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+"),
        std::regex("[-+]?([0-9][0-9_]*)?\\.[0-9.]*([eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*"
                   "|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)"),
        std::regex("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
                   "|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?([Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9]"
                   "(\\.[0-9]*)?(([ \\t]*)Z|[-+][0-9][0-9]?(:[0-9][0-9])?)?"),
        std::regex("<<"),
        std::regex("="),
    };
    static const std::vector<std::regex> yaml12 = {
        std::regex("null|Null|NULL|~|"),
        std::regex("true|True|TRUE|false|False|FALSE"),
        std::regex("[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"),
        std::regex("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN"),
    };
    for (const auto *schema : {&yaml11, &yaml12}) {
        for (const std::regex &type : *schema) {
            if (std::regex_match(plain, type))
                return true;
        }
    }
    return false;
}

// The values the exports must never write plain.
const std::vector<std::string> &trickyValues()
{
    static const std::vector<std::string> values = {
        "2024", "yes", "no", "on", "off", "y", "n", "true", "false", "null", "~", "0123", "0x1F", "0o17", "1e3",
        ".inf", ".nan", "-.inf", "1_000", "12:30", "190:20:30", "2024-01-01", "2001-12-14t21:59:43.10-05:00",
        "", " lead", "trail ", "-dash", "?q", ":c", "#h", "&a", "*s", "!t", "|p", ">f", "'s", "\"d", "%p",
        "@a", "`b", "key: value", "a #comment", "Yes", "NO", "On", "TRUE", "Null", "NULL", "+1", "-1", "0b101",
        "1.5", "- item", "=", "<<", "-", "?", ":", "line\nbreak", "tab\there", "a\xe2\x80\xa8" "b",
        "a\xe2\x80\xa9" "b", "a\xc2\x85" "b", "nul\x01" "byte", "del\x7f", "bom\xef\xbb\xbf", "caf\xc3\xa9",
        "ends:", "two  spaces", "[list]", "{map}", "a,b", "x\ry",
    };
    return values;
}

// The scalar text of `k: <scalar>` as emitted.
std::string emittedScalar(const std::string &value)
{
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "k" << YAML::Value;
    store::emitYamlString(out, value);
    out << YAML::EndMap;
    REQUIRE(out.good());
    const std::string text = out.c_str();
    REQUIRE(text.rfind("k: ", 0) == 0);
    return text.substr(3);
}

} // namespace

TEST_CASE("The quoting rule refuses every scalar a YAML 1.1 or 1.2 reader would retype", "[yamlscalar]")
{
    for (const std::string &value : trickyValues()) {
        INFO("value: " << value);
        CHECK_FALSE(store::isPlainYamlSafe(value));
    }
    // What stays plain is a name, a URL or a metric: nothing either schema resolves.
    for (const std::string value : {"chat-server", "vllm:num_requests_waiting", "http://prometheus.monitoring:9090",
                                    "h100-sxm", "Chat Server", "gpu.nvidia.com", "serving"}) {
        INFO("value: " << value);
        CHECK(store::isPlainYamlSafe(value));
    }
}

TEST_CASE("No plain scalar the rule allows changes type under YAML 1.1 or 1.2", "[yamlscalar]")
{
    // Every string of up to three characters over an alphabet holding digits, letters of the
    // boolean and number words, and the punctuation numbers, dates and times use.
    const std::string alphabet = "01279abefinoxyYNTt.:-_+ ~eE";
    std::vector<std::string> candidates = {""};
    for (int length = 1; length <= 3; ++length) {
        const size_t before = candidates.size();
        for (size_t i = 0; i < before; ++i) {
            if (candidates[i].size() + 1 != size_t(length))
                continue;
            for (char c : alphabet)
                candidates.push_back(candidates[i] + c);
        }
    }
    for (const std::string &value : trickyValues())
        candidates.push_back(value);
    for (const std::string value : {"yes", "no", "on", "off", "true", "false", "null", "Off", "oN", "yES"})
        candidates.push_back(value);
    int plain = 0;
    for (const std::string &value : candidates) {
        if (!store::isPlainYamlSafe(value))
            continue;
        ++plain;
        INFO("value: '" << value << "'");
        CHECK_FALSE(resolvesToNonString(value));
    }
    CHECK(plain > 1000);
    CHECK(candidates.size() > 20000);
}

TEST_CASE("Every tricky value is written quoted and reads back as the same string", "[yamlscalar]")
{
    for (const std::string &value : trickyValues()) {
        INFO("value: " << value);
        const std::string scalar = emittedScalar(value);
        CHECK(scalar.front() == '"');
        const YAML::Node doc = YAML::Load("k: " + scalar);
        CHECK(doc["k"].Tag() == "!");
        CHECK(doc["k"].as<std::string>() == value);
    }
}

TEST_CASE("Line and paragraph separators, NEL and control characters are escaped, never raw", "[yamlscalar]")
{
    for (const std::string value : {"a\xe2\x80\xa8" "b", "a\xe2\x80\xa9" "b", "a\xc2\x85" "b", "a\x01" "b",
                                    "a\x7f" "b", "a\xef\xbb\xbf" "b", "a\tb\nc", "caf\xc3\xa9\xe2\x80\xa8"}) {
        INFO("value: " << value);
        CHECK(store::needsYamlEscapes(value));
        const std::string scalar = emittedScalar(value);
        CHECK(scalar.find("\xe2\x80\xa8") == std::string::npos);
        CHECK(scalar.find("\xe2\x80\xa9") == std::string::npos);
        CHECK(scalar.find("\xc2\x85") == std::string::npos);
        for (unsigned char c : scalar)
            CHECK((c >= 0x20 && c < 0x7f));
        CHECK(YAML::Load("k: " + scalar)["k"].as<std::string>() == value);
    }
    // Other non-ASCII text stays readable.
    CHECK_FALSE(store::needsYamlEscapes("caf\xc3\xa9"));
    CHECK(emittedScalar("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
}

TEST_CASE("Text that is not UTF-8 is refused rather than written altered", "[yamlscalar]")
{
    YAML::Emitter out;
    CHECK_THROWS_AS(store::emitYamlString(out, "a\xff" "b"), engine::InputError);
    CHECK_THROWS_AS(store::emitYamlString(out, "\xc3"), engine::InputError);
}
