#pragma once

#include "specs.h"

#include <string>
#include <string_view>
#include <vector>

// The text form of a model's per-layer kinds, for the catalog's JSON, its table and its
// editor: comma-separated kinds, each optionally repeated `*N`, and parenthesised groups
// repeated the same way. "(linear*3,full)*12" is Qwen3-Next's 48 layers (three Gated DeltaNet
// layers, then one full-attention layer); "(sliding,full)*18" is gpt-oss-120b's 36.
namespace headroom::engine {

// The kinds, or InputError("layer_types") naming what is wrong and where (an unknown kind,
// a repeat outside 1..100,000, an unbalanced parenthesis, more than 100,000 layers). Empty
// text gives an empty list.
std::vector<LayerKind> parseLayerTypes(std::string_view text);

// The shortest form: the smallest repeating period, run-length encoded, e.g.
// "(chunked*3,full)*12"; "" for an empty list.
std::string layerTypesText(const std::vector<LayerKind> &kinds);

} // namespace headroom::engine
