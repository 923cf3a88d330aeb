#pragma once

#include "engine/cost/demand.h"
#include "engine/catalog/ratecard.h"

#include <QByteArray>
#include <QString>
#include <vector>

// CSV forms of rate cards and hourly demand. Bad input throws StoreError naming the source,
// the line and the field; nothing is returned half-read.
namespace headroom::store {

// Rate cards: a header row with the columns provider, region, gpu, instance_type, currency,
// effective_date, on_demand, reserved_1y, reserved_1y_upfront, reserved_3y,
// reserved_3y_upfront, spot, spot_interruption_rate, lead_weeks, committed_are_examples,
// source (any order; all required). Decimal text only, no exponent.
std::vector<engine::RateCard> parseRateCardsCsv(const QByteArray &csv, const QString &sourceName);
QByteArray rateCardsToCsv(const std::vector<engine::RateCard> &cards);

// Demand: `timestamp,gpus` (ISO 8601 UTC or Unix seconds, strictly hourly, no gaps) or a single
// `gpus` column (header optional). A negative or malformed value, a bad timestamp, a step other
// than one hour, or a gap (listed with its first missing hour) is an error naming the line.
// The header row (`timestamp,gpus` or `gpus`) is optional in both forms. The series is named
// after the source's base name (`plans/q1.csv` → `q1`); its source is `sourceName`.
engine::DemandSeries parseDemandCsv(const QByteArray &csv, const QString &sourceName);
engine::DemandSeries readDemandCsvFile(const QString &path);  // errors name `path`
// `timestamp,gpus` with ISO 8601 UTC hours when the series has a start time, else `gpus`.
QByteArray demandToCsv(const engine::DemandSeries &series);

} // namespace headroom::store
