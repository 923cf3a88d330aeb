#pragma once

#include "engine/catalog/specs.h"

#include <string>
#include <vector>

namespace headroom::store::test {

// The rules a DRA ResourceClaimTemplate is held to, checked on the YAML as written (parsed with
// yaml-cpp, independently of the code that wrote it):
//  - resource.k8s.io/v1 validation: kind and apiVersion; the object name a DNS-1123 subdomain
//    (at most 253 characters), the namespace, request and subrequest names DNS-1123 labels (at
//    most 63), unique where the API wants them unique; one of exactly/firstAvailable per
//    request; 1 to 8 firstAvailable subrequests; deviceClassName a subdomain; count ≥ 1.
//  - the drivers' attributes: every device.attributes[...] and device.capacity[...] of a CEL
//    selector is in the domain of the driver behind the subrequest's device class
//    (gpu.nvidia.com and mig.nvidia.com: gpu.nvidia.com; gpu.amd.com: gpu.amd.com), and no
//    selector matches by substring (contains, startsWith, endsWith, matches).
//  - exactness: the productName a selector compares with == (and the memory it requires, if
//    any) is that of exactly one GPU of `catalog` sold by the device class's vendor.
// Returns one line per broken rule, naming where; empty when every rule holds.
std::vector<std::string> draClaimProblems(const std::string &yaml, const std::vector<engine::GpuSpec> &catalog);

// The strings the rules above use, spelled out as the API validates them.
bool isDns1123Label(const std::string &text);      // [a-z0-9]([-a-z0-9]*[a-z0-9])?, ≤ 63
bool isDns1123Subdomain(const std::string &text);  // labels joined by '.', ≤ 253

} // namespace headroom::store::test
