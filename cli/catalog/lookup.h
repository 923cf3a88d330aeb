#pragma once

#include "engine/catalog/specs.h"

#include <QString>

namespace headroom::store {
class Workspace;
}

// Catalog look-ups by id for the verbs. An unknown id throws UsageError naming the closest
// known ids ("unknown model 'llama-3.1-7b'; closest: llama-3.1-8b, ...").
namespace headroom::cli {

engine::ModelSpec findModel(const store::Workspace &workspace, const QString &id);
engine::GpuSpec findGpu(const store::Workspace &workspace, const QString &id);

} // namespace headroom::cli
