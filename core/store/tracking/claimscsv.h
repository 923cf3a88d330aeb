#pragma once

#include "engine/tracking/chargeback.h"

#include <QByteArray>
#include <QString>
#include <vector>

// GPU claims of a shared pool over a period, as a CSV ledger (core/store/README.md, "GPU claims
// CSV"), one row per tenant's hold on one GPU:
//   tenant,resource_id,resource_gpus,gpu,mode,start,end[,gpu_type][,profile][,share]
//   [,resident_gib][,namespace][,model][,deployment]
// resource_id is the machine as the FOCUS export's ResourceId names it, resource_gpus its GPU
// count (the same on every row of the machine), gpu the index 0 … resource_gpus − 1; mode one of
// mig, time-slice, mps, over-commit, exclusive; start and end ISO 8601 with Z or an offset;
// profile (MIG) a profile of gpu_type's MIG table; share (time-slice, MPS) in (0, 1] with at
// most 6 decimals; resident_gib (over-commit) the tenant's resident memory.
//
// Refused with a StoreError "<source>: line N: field "F": ...", nothing returned: a missing
// column, an empty tenant or resource, a GPU count outside 1 … 64 or differing between rows of
// one machine (and gpu_type likewise), a GPU index off the machine, an unknown mode, a field the
// mode needs left empty, a bad time or number, an end not after the start, and anything past
// the "GPU claims CSV" import limits.
namespace headroom::store {

struct ClaimsFile {
    std::vector<engine::PoolResource> resources;   // in first-seen order; MIG table and memory unset
    std::vector<engine::GpuClaim> claims;
};

ClaimsFile parseClaimsCsv(const QByteArray &csv, const QString &sourceName);
ClaimsFile readClaimsCsv(const QString &path);

} // namespace headroom::store
