#include "moneyoptions.h"

#include <algorithm>

namespace headroom::cli {

namespace {

constexpr qint64 kMaxGpusPerInstance = 1024;

QString malformed(const QString &flag, const QString &value)
{
    QString message = QStringLiteral("%1: expected a plain decimal number (digits, an optional '.', "
                                     "at most %2 decimals, no exponent), got '%3'")
                          .arg(flag)
                          .arg(engine::Decimal::kScale)
                          .arg(value);
    const qsizetype slash = value.indexOf(QLatin1Char('/'));
    if (slash > 0) {
        message += QStringLiteral("; for an instance price give %1 %2 --per %3")
                       .arg(flag, value.left(slash).trimmed(), value.mid(slash + 1).trimmed());
    }
    return message;
}

} // namespace

std::optional<engine::Decimal> decimalOption(const Args &args, const QString &name)
{
    const auto text = args.text(name);
    if (!text)
        return std::nullopt;
    const auto value = engine::Decimal::parse(text->trimmed().toStdString());
    if (!value)
        throw UsageError(malformed(Args::flag(name), *text));
    return value;
}

engine::Decimal decimalInRange(const Args &args, const QString &name, engine::Decimal min,
                               engine::Decimal max, const QString &what)
{
    const auto value = decimalOption(args, name);
    if (!value)
        throw UsageError(QStringLiteral("%1 is required %2").arg(Args::flag(name), what));
    if (*value < min || *value > max) {
        throw UsageError(QStringLiteral("%1: must be between %2 and %3, got %4")
                             .arg(Args::flag(name), QString::fromStdString(min.toString()),
                                  QString::fromStdString(max.toString()),
                                  QString::fromStdString(value->toString())));
    }
    return *value;
}

std::string currencyOption(const Args &args)
{
    const QString code = args.text(QStringLiteral("currency")).value_or(QStringLiteral("USD")).trimmed();
    const bool valid = code.size() == 3
        && std::all_of(code.begin(), code.end(), [](QChar c) { return c.isLetter() && c.unicode() < 128; });
    if (!valid) {
        throw UsageError(QStringLiteral("--currency: expected a three-letter ISO 4217 code such as USD, "
                                        "got '%1'").arg(code));
    }
    return code.toUpper().toStdString();
}

qint64 gpusPerInstance(const Args &args)
{
    return args.integer(QStringLiteral("per"), 1, kMaxGpusPerInstance).value_or(1);
}

std::optional<engine::Money> rateOption(const Args &args, const QString &name, const std::string &currency,
                                        qint64 perInstance)
{
    const auto value = decimalOption(args, name);
    if (!value)
        return std::nullopt;
    if (value->isNegative() || value->isZero()) {
        throw UsageError(QStringLiteral("%1: a price per GPU-hour must be greater than 0, got %2")
                             .arg(Args::flag(name), QString::fromStdString(value->toString())));
    }
    const engine::Decimal perGpu = *value / int64_t(perInstance);
    if (perGpu.isZero()) {
        throw UsageError(QStringLiteral("%1: %2 per %3 GPUs is below the smallest rate (%4 decimals)")
                             .arg(Args::flag(name), QString::fromStdString(value->toString()))
                             .arg(perInstance)
                             .arg(engine::Decimal::kScale));
    }
    return engine::Money{perGpu, currency};
}

engine::Money requiredRate(const Args &args, const QString &name, const std::string &currency,
                           qint64 perInstance, const QString &what)
{
    const auto rate = rateOption(args, name, currency, perInstance);
    if (!rate)
        throw UsageError(QStringLiteral("%1 is required %2").arg(Args::flag(name), what));
    return *rate;
}

QString rateString(const engine::Money &rate)
{
    const std::string exact = rate.amount.toString();
    const size_t dot = exact.find('.');
    if (dot == std::string::npos || exact.size() - dot - 1 < 2)
        return QString::fromStdString(rate.amount.toString(2));
    return QString::fromStdString(exact);
}

QString moneyText(const engine::Money &money)
{
    return QString::fromStdString(money.display());
}

QString rateText(const engine::Money &rate)
{
    return QString::fromStdString(rate.displayRate());
}

QString decimalText(engine::Decimal value)
{
    QString text = QString::fromStdString(value.toString());
    const qsizetype start = text.startsWith(QLatin1Char('-')) ? 1 : 0;
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    for (qsizetype i = (dot < 0 ? text.size() : dot) - 3; i > start; i -= 3)
        text.insert(i, QLatin1Char(','));
    return text;
}

} // namespace headroom::cli
