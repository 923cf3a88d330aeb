#pragma once

#include "engine/serving/step_time_table.h"

#include <QByteArray>
#include <QString>

// A measured step-time table for the serving simulation (engine/serving/step_time_table.h), one point
// per row:
//   phase,batch,context_tokens,prefill_tokens,ms
// phase is "decode" (batch ≥ 1 and context_tokens ≥ 0 set, prefill_tokens empty) or "prefill"
// (prefill_tokens ≥ 1 set, batch and context_tokens empty); ms is the iteration time in
// milliseconds (> 0). The header row is required; columns are found by name, in any order;
// extra columns are ignored. Lines whose first character is "#" are comments; blank lines are
// skipped. The decode rows must form a full grid of batch × context_tokens. A malformed row
// throws StoreError "<source>: line N: field "F": ..." (a grid gap or a missing phase
// "<source>: ...") and nothing is returned.
namespace headroom::store {

engine::StepTimeTable parseStepTimes(const QByteArray &csv, const QString &sourceName);
engine::StepTimeTable readStepTimes(const QString &path);

} // namespace headroom::store
