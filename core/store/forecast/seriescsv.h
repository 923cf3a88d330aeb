#pragma once

#include <QByteArray>
#include <QString>
#include <vector>

// Plain numeric series for the forecast verb (DESIGN §3.6): one value per time step.
namespace headroom::store {

// A series file: CSV "timestamp,value" (ISO 8601, UTC when no offset, strictly increasing)
// or a single "value" column; a header row naming those columns is optional. Values are in
// the series' own unit. Throws StoreError naming the file, line and field for an unreadable
// or empty file, a wrong field count, an empty, non-numeric or non-finite value, or a
// timestamp that is malformed or not after the previous one.
std::vector<double> readValueSeries(const QString &path);

// One number per line (blank lines at the end ignored), e.g. initial seasonal states.
// Throws StoreError naming the file and line of an empty or non-numeric line.
std::vector<double> readNumberLines(const QString &path);

// The same over file contents, errors naming `sourceName`.
std::vector<double> parseValueSeries(const QByteArray &csv, const QString &sourceName);
std::vector<double> parseNumberLines(const QByteArray &text, const QString &sourceName);

} // namespace headroom::store
