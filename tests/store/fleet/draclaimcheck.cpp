#include "draclaimcheck.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>

namespace headroom::store::test {

namespace {

// The driver (attribute domain) behind each device class the drivers install: NVIDIA's
// gpu.nvidia.com and mig.nvidia.com, AMD's gpu.amd.com.
const std::map<std::string, std::string> kClassDomain = {
    {"gpu.nvidia.com", "gpu.nvidia.com"},
    {"mig.nvidia.com", "gpu.nvidia.com"},
    {"gpu.amd.com", "gpu.amd.com"},
};

std::string vendorDomain(const std::string &vendor)
{
    std::string key;
    for (unsigned char c : vendor)
        key += char(std::tolower(c));
    if (key == "nvidia")
        return "gpu.nvidia.com";
    if (key == "amd")
        return "gpu.amd.com";
    return {};
}

// A CEL string literal's text without its quotes, escapes undone.
std::string unescaped(const std::string &body)
{
    std::string out;
    for (size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '\\' || i + 1 == body.size()) {
            out += body[i];
            continue;
        }
        const char next = body[++i];
        if (next == 'n')
            out += '\n';
        else if (next == 'r')
            out += '\r';
        else if (next == 't')
            out += '\t';
        else if (next == 'x' && i + 2 < body.size()) {
            out += char(std::stoi(body.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else
            out += next;
    }
    return out;
}

std::string scalar(const YAML::Node &node)
{
    return node && node.IsScalar() ? node.as<std::string>() : std::string();
}

class ClaimChecker {
public:
    ClaimChecker(const std::vector<engine::GpuSpec> &catalog, std::vector<std::string> &problems)
        : m_catalog(catalog), m_problems(problems)
    {
    }

    void fail(const std::string &where, const std::string &what) { m_problems.push_back(where + ": " + what); }

    void label(const std::string &where, const YAML::Node &node)
    {
        if (!isDns1123Label(scalar(node)))
            fail(where, "'" + scalar(node) + "' is not a DNS-1123 label of at most 63 characters");
    }

    void subdomain(const std::string &where, const YAML::Node &node)
    {
        if (!isDns1123Subdomain(scalar(node)))
            fail(where, "'" + scalar(node) + "' is not a DNS-1123 subdomain of at most 253 characters");
    }

    void subrequest(const std::string &where, const YAML::Node &sub)
    {
        label(where + ".name", sub["name"]);
        subdomain(where + ".deviceClassName", sub["deviceClassName"]);
        const std::string deviceClass = scalar(sub["deviceClassName"]);
        const auto domain = kClassDomain.find(deviceClass);
        if (domain == kClassDomain.end()) {
            fail(where + ".deviceClassName", "'" + deviceClass + "' is no device class of a known GPU driver");
            return;
        }
        const std::string mode = sub["allocationMode"] ? scalar(sub["allocationMode"]) : "ExactCount";
        if (mode != "ExactCount" && mode != "All")
            fail(where + ".allocationMode", "'" + mode + "' is neither ExactCount nor All");
        if (mode == "ExactCount" && sub["count"] && sub["count"].as<long long>() < 1)
            fail(where + ".count", "must be at least 1");
        const YAML::Node selectors = sub["selectors"];
        if (!selectors || !selectors.IsSequence() || selectors.size() == 0 || selectors.size() > 32) {
            fail(where + ".selectors", "a catalog GPU needs 1 to 32 selectors");
            return;
        }
        for (size_t i = 0; i < selectors.size(); ++i)
            selector(where + ".selectors[" + std::to_string(i) + "].cel.expression",
                     scalar(selectors[i]["cel"]["expression"]), deviceClass, domain->second);
    }

    void selector(const std::string &where, const std::string &expression, const std::string &deviceClass,
                  const std::string &domain)
    {
        if (expression.empty() || expression.size() > 10 * 1024) {
            fail(where, "a CEL expression of 1 to 10 KiB is required");
            return;
        }
        static const std::regex reference(R"re(device\.(attributes|capacity)\[\s*("((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\])re");
        for (auto it = std::sregex_iterator(expression.begin(), expression.end(), reference);
             it != std::sregex_iterator(); ++it) {
            const std::string used = unescaped((*it)[3].matched ? (*it)[3].str() : (*it)[4].str());
            if (used != domain)
                fail(where, "reads device." + (*it)[1].str() + "[\"" + used + "\"], not the domain of " + deviceClass
                                + "'s driver (" + domain + ")");
        }
        static const std::regex substring(R"(\.(contains|startsWith|endsWith|matches)\s*\()");
        if (std::regex_search(expression, substring))
            fail(where, "matches by substring: " + expression);
        if (deviceClass == "gpu.amd.com" && expression.find(".type == \"amdgpu\"") == std::string::npos)
            fail(where, "gpu.amd.com also selects partitions, which carry their parent's productName: "
                        "a whole GPU needs type == \"amdgpu\"");

        static const std::regex productName(R"re(\.productName\s*==\s*"((?:[^"\\]|\\.)*)")re");
        std::vector<std::string> names;
        for (auto it = std::sregex_iterator(expression.begin(), expression.end(), productName);
             it != std::sregex_iterator(); ++it)
            names.push_back(unescaped((*it)[1].str()));
        if (names.size() != 1) {
            fail(where, "compares productName with == " + std::to_string(names.size()) + " times, not once");
            return;
        }
        static const std::regex memory(R"re(\.memory\.compareTo\(quantity\("(\d+)"\)\)\s*==\s*0)re");
        std::smatch memoryMatch;
        const bool byMemory = std::regex_search(expression, memoryMatch, memory);
        std::vector<std::string> matching;
        for (const engine::GpuSpec &gpu : m_catalog) {
            if (vendorDomain(gpu.vendor) == domain && gpu.draProductName == names.front()
                && (!byMemory || std::to_string(gpu.memoryBytes) == memoryMatch[1].str()))
                matching.push_back(gpu.id);
        }
        if (matching.size() != 1) {
            std::string ids;
            for (const std::string &id : matching)
                ids += (ids.empty() ? "" : ", ") + id;
            fail(where, "productName \"" + names.front() + "\"" + (byMemory ? " with memory " + memoryMatch[1].str() : "")
                            + " is that of " + std::to_string(matching.size()) + " catalog GPUs (" + ids
                            + "), not exactly one");
        }
    }

private:
    const std::vector<engine::GpuSpec> &m_catalog;
    std::vector<std::string> &m_problems;
};

} // namespace

bool isDns1123Label(const std::string &text)
{
    static const std::regex label("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    return !text.empty() && text.size() <= 63 && std::regex_match(text, label);
}

bool isDns1123Subdomain(const std::string &text)
{
    static const std::regex subdomain("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    return !text.empty() && text.size() <= 253 && std::regex_match(text, subdomain);
}

std::vector<std::string> draClaimProblems(const std::string &yaml, const std::vector<engine::GpuSpec> &catalog)
{
    std::vector<std::string> problems;
    YAML::Node doc;
    try {
        doc = YAML::Load(yaml);
    } catch (const YAML::Exception &e) {
        return {std::string("the YAML does not parse: ") + e.what()};
    }
    ClaimChecker check(catalog, problems);
    if (scalar(doc["apiVersion"]) != "resource.k8s.io/v1")
        check.fail("apiVersion", "'" + scalar(doc["apiVersion"]) + "', not resource.k8s.io/v1");
    if (scalar(doc["kind"]) != "ResourceClaimTemplate")
        check.fail("kind", "'" + scalar(doc["kind"]) + "', not ResourceClaimTemplate");
    check.subdomain("metadata.name", doc["metadata"]["name"]);
    check.label("metadata.namespace", doc["metadata"]["namespace"]);
    const YAML::Node requests = doc["spec"]["spec"]["devices"]["requests"];
    if (!requests || !requests.IsSequence() || requests.size() == 0 || requests.size() > 32) {
        check.fail("spec.spec.devices.requests", "1 to 32 requests are required");
        return problems;
    }
    std::set<std::string> requestNames;
    for (size_t r = 0; r < requests.size(); ++r) {
        const std::string where = "requests[" + std::to_string(r) + "]";
        const YAML::Node request = requests[r];
        check.label(where + ".name", request["name"]);
        if (!requestNames.insert(scalar(request["name"])).second)
            check.fail(where + ".name", "'" + scalar(request["name"]) + "' is not unique");
        if (bool(request["exactly"]) == bool(request["firstAvailable"])) {
            check.fail(where, "needs exactly one of exactly and firstAvailable");
            continue;
        }
        if (request["exactly"]) {
            check.subrequest(where + ".exactly", request["exactly"]);
            continue;
        }
        const YAML::Node first = request["firstAvailable"];
        if (!first.IsSequence() || first.size() == 0 || first.size() > 8) {
            check.fail(where + ".firstAvailable", "has " + std::to_string(first.size())
                                                       + " subrequests; resource.k8s.io/v1 allows 1 to 8");
            continue;
        }
        std::set<std::string> subNames;
        for (size_t s = 0; s < first.size(); ++s) {
            const std::string subWhere = where + ".firstAvailable[" + std::to_string(s) + "]";
            if (!subNames.insert(scalar(first[s]["name"])).second)
                check.fail(subWhere + ".name", "'" + scalar(first[s]["name"]) + "' is not unique in its request");
            check.subrequest(subWhere, first[s]);
        }
    }
    return problems;
}

} // namespace headroom::store::test
