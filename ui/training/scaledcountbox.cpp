#include "scaledcountbox.h"

#include "trainingcharts.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

ScaledCountBox::ScaledCountBox(const QString &unit, QWidget *parent)
    : QDoubleSpinBox(parent)
    , m_unit(unit)
{
    setDecimals(0);
    setKeyboardTracking(false);
}

QString ScaledCountBox::textFromValue(double value) const
{
    return formatScaledCount(value);
}

double ScaledCountBox::valueFromText(const QString &text) const
{
    return parse(text).value_or(value());
}

QValidator::State ScaledCountBox::validate(QString &input, int &) const
{
    const QString body = stripped(input);
    if (body.isEmpty())
        return QValidator::Intermediate;
    const auto value = parse(input);
    if (!value)
        return QRegularExpression(QStringLiteral("^[0-9.eE+\\-]*\\s*[kKmMbBtT]?$")).match(body).hasMatch()
            ? QValidator::Intermediate
            : QValidator::Invalid;
    return *value >= minimum() && *value <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

void ScaledCountBox::stepBy(int steps)
{
    const double v = std::max(value(), 1.0);
    const double step = std::pow(10.0, std::floor(std::log10(v)) - 1);
    setValue(value() + steps * step);
}

QString ScaledCountBox::stripped(const QString &text) const
{
    // The unit as shown now ("1 token", "4M tokens"), or as typed in full.
    QString body = text.trimmed();
    for (const QString &unit : {suffix().trimmed(), m_unit.trimmed()}) {
        if (!unit.isEmpty() && body.endsWith(unit)) {
            body.chop(unit.size());
            break;
        }
    }
    return body.remove(QLatin1Char(',')).trimmed();
}

std::optional<double> ScaledCountBox::parse(const QString &text) const
{
    QString body = stripped(text);
    double scale = 1;
    if (!body.isEmpty()) {
        switch (body.back().toUpper().toLatin1()) {
        case 'K': scale = 1e3; break;
        case 'M': scale = 1e6; break;
        case 'B': scale = 1e9; break;
        case 'T': scale = 1e12; break;
        default: break;
        }
        if (scale != 1)
            body.chop(1);
    }
    bool ok = false;
    const double value = body.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value * scale;
}

} // namespace headroom::ui
