#pragma once

#include <QStringList>

namespace headroom::store {

// Field names of catalog entries in the order of the shipped files. They are the JSON keys
// of data/*.json and, one for one, the columns of the gpu and model tables.
const QStringList &gpuKeys();
const QStringList &modelKeys();
// Rate card fields: the CSV columns; the rate_card table names the GPU column gpu_id.
const QStringList &rateCardKeys();

} // namespace headroom::store
