#pragma once

#include <QString>
#include <cstdint>

namespace headroom::ui {

// Texts shared by the Forecast page's widgets.

// "P05", "P50", "P95" for a probability of 0.05, 0.5, 0.95.
QString probabilityName(double p);
// "2024-03-01 14:00 UTC" for seconds since the epoch.
QString epochText(int64_t epoch);
// The date and hour `hour` hours after `startEpoch` ("2024-03-01 14:00"), or "hour N" when the
// series has no timestamps.
QString hourText(int64_t startEpoch, int64_t hour);

} // namespace headroom::ui
