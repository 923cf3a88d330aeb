#include "fields.h"

#include <QCoreApplication>
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

bool isNumerus(const QString &suffix)
{
    return suffix.contains(QLatin1String("(s)")) || suffix.contains(QLatin1String("(es)"));
}

QString suffixFor(const QString &numerusSuffix, int n)
{
    return QCoreApplication::translate("headroom::ui", numerusSuffix.toUtf8().constData(), nullptr, n);
}

} // namespace

// The numerus suffix lives in a property, so that a box whose unit changes (days or GPUs) is
// connected once and always shows its current noun.
constexpr const char *kNumerusSuffix = "headroomNumerusSuffix";

void setCountSuffix(QSpinBox *box, const QString &numerusSuffix)
{
    const bool connected = box->property(kNumerusSuffix).isValid();
    box->setProperty(kNumerusSuffix, numerusSuffix);
    box->setSuffix(suffixFor(numerusSuffix, box->value()));
    if (!connected)
        QObject::connect(box, &QSpinBox::valueChanged, box, [box](int value) {
            box->setSuffix(suffixFor(box->property(kNumerusSuffix).toString(), value));
        });
}

void setCountSuffix(QDoubleSpinBox *box, const QString &numerusSuffix)
{
    // The number as shown: "1.0 days" at one decimal, only a plain 1 is singular.
    static const auto count = [](const QDoubleSpinBox *b, double value) {
        return b->decimals() == 0 && b->textFromValue(value) == QLatin1String("1") ? 1 : 2;
    };
    const bool connected = box->property(kNumerusSuffix).isValid();
    box->setProperty(kNumerusSuffix, numerusSuffix);
    box->setSuffix(suffixFor(numerusSuffix, count(box, box->value())));
    if (!connected)
        QObject::connect(box, &QDoubleSpinBox::valueChanged, box, [box](double value) {
            box->setSuffix(suffixFor(box->property(kNumerusSuffix).toString(), count(box, value)));
        });
}

QSpinBox *newSpinBox(QWidget *parent, const char *name, int min, int max, int value, const QString &suffix,
                     const QString &tip)
{
    auto *box = new QSpinBox(parent);
    setUp(box, name, tip);
    box->setRange(min, max);
    box->setValue(value);
    if (isNumerus(suffix))
        setCountSuffix(box, suffix);
    else
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
    if (isNumerus(suffix))
        setCountSuffix(box, suffix);
    else
        box->setSuffix(suffix);
    return box;
}

} // namespace headroom::ui
