#pragma once

#include "engine/partitioning/mig.h"

#include <QByteArray>
#include <QString>
#include <vector>

// MIG profile tables per GPU type (DESIGN §3.4), the shipped data/mig_profiles.json:
// {"mig_profiles": [{"gpu", "compute_slices", "memory_slices", "source", "profiles": [...]}]}.
// See data/README.md for the keys.
namespace headroom::store {

// Parses and checks every table; throws StoreError naming the source, the entry (index and
// GPU id), the profile and the field of the first problem.
std::vector<engine::MigGpuProfiles> parseMigProfiles(const QByteArray &json, const QString &source);

// The tables shipped in the Qt resource :/catalogs/mig_profiles.json, read once.
const std::vector<engine::MigGpuProfiles> &shippedMigProfiles();

// The shipped table of one catalog GPU id, or nullptr when that GPU has no MIG.
const engine::MigGpuProfiles *shippedMigProfiles(const QString &gpuId);

} // namespace headroom::store
