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

} // namespace headroom::ui
