#pragma once

#include "engine/inference/vllm_log.h"

#include <QString>

// A vLLM server's start-up log read from a file (engine/inference/vllm_log.h for the lines),
// within the import limits of a log: 64 MiB. StoreError naming the file when it cannot be read,
// is too large, or holds no line vLLM prints about its memory.
namespace headroom::store {

engine::VllmStartupLog readVllmStartupLog(const QString &path);

} // namespace headroom::store
