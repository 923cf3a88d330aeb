#pragma once

#include <QDoubleSpinBox>
#include <QString>
#include <optional>

namespace headroom::ui {

// A large count (parameters, tokens) shown and typed with a K/M/B/T suffix (10^3 … 10^12):
// "1.4 T", "70 B", "4.19 M"; plain digits are accepted too. Steps move the second digit.
// `unit` is the unit as typed in full (" tokens"), accepted after the number.
class ScaledCountBox : public QDoubleSpinBox {
public:
    ScaledCountBox(const QString &unit, QWidget *parent);

    QString textFromValue(double value) const override;
    double valueFromText(const QString &text) const override;
    QValidator::State validate(QString &input, int &) const override;
    void stepBy(int steps) override;

private:
    // The text without its unit and digit group separators.
    QString stripped(const QString &text) const;
    std::optional<double> parse(const QString &text) const;

    QString m_unit;
};

} // namespace headroom::ui
