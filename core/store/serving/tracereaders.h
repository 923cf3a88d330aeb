#pragma once

#include "engine/serving/trace.h"

#include <QByteArray>
#include <QString>
#include <vector>

// Request-trace parsers over file contents; readAzureTrace() and readMooncakeTrace() in
// workloadjson.h read files through them. They parse only: statistics are
// engine::analyseTrace(). Errors throw StoreError("<source>: line N: field "F": ...") and
// nothing is returned; an empty trace is "<source>: no requests".
namespace headroom::store {

// Azure LLM inference trace CSV (Patel et al., "Splitwise", ISCA 2024): the header
// TIMESTAMP,ContextTokens,GeneratedTokens, then one request per line, timestamps like
// 2023-11-16 18:15:46.6805900 (up to 9 fractional digits, optional Z or ±hh:mm offset, UTC
// otherwise). TraceRequest::timestampS is seconds after the first request. LF or CRLF; the
// last line may lack its line break; blank lines are skipped; timestamps must not decrease.
std::vector<engine::TraceRequest> parseAzureTrace(const QByteArray &csv,
                                                  const QString &sourceName);

// Mooncake trace JSONL (Qin et al., FAST 2025): one object per line with "timestamp" (ms from
// the start, ≥ 0, not decreasing), "input_length", "output_length" (tokens) and optionally
// "hash_ids" (512-token prefix-block hashes); other keys are ignored. timestampS = ms / 1000.
std::vector<engine::TraceRequest> parseMooncakeTrace(const QByteArray &jsonl,
                                                     const QString &sourceName);

} // namespace headroom::store
