#include "fields.h"

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace headroom::ui {

namespace {

void setUp(QAbstractSpinBox *box, const char *name, const QString &tip)
{
    box->setObjectName(QLatin1String(name));
    box->setToolTip(tip);
    box->setGroupSeparatorShown(true);
    box->setAccelerated(true);
}

} // namespace

QSpinBox *newSpinBox(QWidget *parent, const char *name, int min, int max, int value, const QString &suffix,
                     const QString &tip)
{
    auto *box = new QSpinBox(parent);
    setUp(box, name, tip);
    box->setRange(min, max);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}

QDoubleSpinBox *newDoubleSpinBox(QWidget *parent, const char *name, double min, double max, double value,
                                 int decimals, const QString &suffix, const QString &tip)
{
    auto *box = new QDoubleSpinBox(parent);
    setUp(box, name, tip);
    box->setDecimals(decimals);
    box->setRange(min, max);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}

} // namespace headroom::ui
