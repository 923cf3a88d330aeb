#pragma once

#include <QString>

class QDoubleSpinBox;
class QSpinBox;
class QWidget;

namespace headroom::ui {

// Number fields as every form builds them: named for tests, a range, the unit as a suffix, a
// tool tip saying what the number means, thousands separators and accelerated stepping.
QSpinBox *newSpinBox(QWidget *parent, const char *name, int min, int max, int value, const QString &suffix,
                     const QString &tip);
QDoubleSpinBox *newDoubleSpinBox(QWidget *parent, const char *name, double min, double max, double value,
                                 int decimals, const QString &suffix, const QString &tip);

// A suffix with a counted noun, written as tr() numerus text (" GPU(s)", " week(s)"), kept in
// the number of the value shown: "1 GPU", "8 GPUs". newSpinBox and newDoubleSpinBox use it for
// such suffixes; a plain suffix (" %", " ms") is set as is.
void setCountSuffix(QSpinBox *box, const QString &numerusSuffix);
void setCountSuffix(QDoubleSpinBox *box, const QString &numerusSuffix);

} // namespace headroom::ui
