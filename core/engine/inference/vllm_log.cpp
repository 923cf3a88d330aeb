#include "vllm_log.h"

#include "engine/common/errors.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace headroom::engine {

namespace {

// The number right after `key` in `line` ("436,528", "79.22GiB", "0.90"), its thousands
// separators dropped, and the unit written right after it.
struct Figure {
    double value = 0;
    std::string_view unit;
};

std::optional<Figure> figureAfter(std::string_view line, std::string_view key)
{
    const size_t at = line.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    size_t i = at + key.size();
    // The number follows its key within a few characters (": ", " (", " takes ", " is ").
    constexpr size_t kNear = 12;
    while (i < line.size() && !std::isdigit(static_cast<unsigned char>(line[i]))) {
        if (++i - (at + key.size()) > kNear)
            return std::nullopt;
    }
    std::string digits;
    size_t j = i;
    for (; j < line.size(); ++j) {
        const char c = line[j];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.')
            digits += c;
        else if (c != ',' || j + 1 >= line.size() || !std::isdigit(static_cast<unsigned char>(line[j + 1])))
            break;
    }
    Figure f;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), f.value);
    if (error != std::errc() || end != digits.data() + digits.size() || !std::isfinite(f.value))
        return std::nullopt;
    size_t u = j;
    while (u < line.size() && line[u] == ' ')
        ++u;
    size_t v = u;
    while (v < line.size() && std::isalpha(static_cast<unsigned char>(line[v])))
        ++v;
    f.unit = line.substr(u, v - u);
    return f;
}

// vLLM writes memory in GiB (older versions label the same figure "GB"); MiB where it is small.
double gib(const Figure &f) { return f.unit == "MiB" || f.unit == "MB" ? f.value / 1024.0 : f.value; }

template <typename T>
bool keep(std::optional<T> &slot, std::optional<T> value)
{
    if (!value || slot)
        return false;
    slot = value;
    return true;
}

std::optional<double> gibAfter(std::string_view line, std::string_view key)
{
    const auto f = figureAfter(line, key);
    return f ? std::optional<double>(gib(*f)) : std::nullopt;
}

std::optional<double> valueAfter(std::string_view line, std::string_view key)
{
    const auto f = figureAfter(line, key);
    return f ? std::optional<double>(f->value) : std::nullopt;
}

std::optional<int64_t> countAfter(std::string_view line, std::string_view key)
{
    const auto f = figureAfter(line, key);
    if (!f || f->value != std::floor(f->value) || f->value > 9e15)
        return std::nullopt;
    return int64_t(f->value);
}

} // namespace

VllmStartupLog parseVllmStartupLog(std::string_view text)
{
    VllmStartupLog log;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find_first_of("\r\n", start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        bool read = false;
        read |= keep(log.totalGiB, gibAfter(line, "total_gpu_memory"));
        read |= keep(log.utilization, valueAfter(line, "gpu_memory_utilization"));
        read |= keep(log.weightsGiB, gibAfter(line, "Model loading took"));
        read |= keep(log.weightsGiB, gibAfter(line, "Loading model weights took"));
        read |= keep(log.weightsGiB, gibAfter(line, "model weights take"));
        read |= keep(log.nonTorchGiB, gibAfter(line, "non_torch_memory"));
        read |= keep(log.activationPeakGiB, gibAfter(line, "activation peak memory"));
        read |= keep(log.kvCacheGiB, gibAfter(line, "Available KV cache memory"));
        read |= keep(log.kvCacheGiB, gibAfter(line, "reserved for KV Cache is"));
        read |= keep(log.kvCacheGiB, gibAfter(line, "available_kv_cache_memory"));
        read |= keep(log.kvTokens, countAfter(line, "GPU KV cache size"));
        read |= keep(log.gpuBlocks, countAfter(line, "# GPU blocks"));
        read |= keep(log.gpuBlocks, countAfter(line, "# CUDA blocks"));
        if (line.find("Maximum concurrency for") != std::string_view::npos) {
            read |= keep(log.concurrencyTokens, countAfter(line, "Maximum concurrency for"));
            read |= keep(log.concurrency, valueAfter(line, "tokens per request"));
        }
        log.linesRead += read ? 1 : 0;
    }
    if (log.linesRead == 0)
        throw InputError("log", "no line of the log is one vLLM prints about its memory (\"Model loading took …\", "
                                "\"Available KV cache memory: …\", \"GPU KV cache size: … tokens\", \"# GPU blocks: …\")");
    return log;
}

VllmLogComparison compareWithLog(const KvInputs &in, const VllmStartupLog &log)
{
    KvInputs inputs = in;
    inputs.sharedPrefixTokens = 0;
    inputs.contexts.clear();
    const KvResult r = analyseKv(inputs);
    VllmLogComparison c;
    const bool hybrid = r.perToken.slidingLayers > 0 || r.perToken.chunkedLayers > 0 || r.perToken.stateBytes > 0;
    if (log.kvTokens && !hybrid) {
        c.loggedKvBytes = *log.kvTokens * r.kvBytesPerToken;
        c.kvFromTokens = true;
    } else if (log.gpuBlocks && !hybrid) {
        c.loggedKvBytes = *log.gpuBlocks * r.blockBytes;
        c.kvFromTokens = true;
    } else if (log.kvCacheGiB) {
        c.loggedKvBytes = int64_t(std::llround(*log.kvCacheGiB * double(kGiB)));
    } else {
        throw InputError("log", hybrid ? "the log gives the KV cache only in tokens, which a model with sliding-window, "
                                         "chunked or linear layers cannot be converted from: it needs the \"Available KV cache memory\" line"
                                       : "the log holds no KV cache figure (\"Available KV cache memory\", \"GPU KV "
                                         "cache size\" or \"# GPU blocks\")");
    }
    if (c.loggedKvBytes <= 0)
        throw InputError("log", "the log's KV cache is empty");
    if (log.kvTokens)
        c.loggedTokens = *log.kvTokens;
    else if (log.gpuBlocks)
        c.loggedTokens = *log.gpuBlocks * in.blockSize;
    c.predictedKvBytes = r.poolBytes;
    c.kvErrorShare = double(r.poolBytes - c.loggedKvBytes) / double(c.loggedKvBytes);
    c.predictedTokens = r.blocks * in.blockSize;
    c.predictedWeightsBytes = r.weightsBytes;
    if (log.weightsGiB && *log.weightsGiB > 0)
        c.weightsErrorShare = double(r.weightsBytes) / (*log.weightsGiB * double(kGiB)) - 1.0;
    c.impliedReserveBytes = r.usableBytes - r.weightsBytes - c.loggedKvBytes;
    return c;
}

} // namespace headroom::engine
