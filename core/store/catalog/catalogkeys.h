#pragma once

#include <QStringList>

namespace headroom::store {

// Field names of catalog entries in the order of the shipped files. They are the JSON keys
// of data/*.json and, one for one, the columns of the gpu and model tables.
const QStringList &gpuKeys();
const QStringList &modelKeys();
// Of those, the keys an entry may leave out: a GPU's DRA product name ("dra_product_name";
// absent: unknown), measured serving profile ("efficiency", an object with efficiencyKeys();
// absent: none) and calibrations, a model's vocabulary ("vocab_size"; absent: 0, unknown),
// "tied_embeddings" (absent: false) and expert counts. Older catalog files have none of them.
const QStringList &optionalCatalogKeys();
const QStringList &efficiencyKeys();
// Rate card fields: the CSV columns; the rate_card table names the GPU column gpu_id.
const QStringList &rateCardKeys();

} // namespace headroom::store
