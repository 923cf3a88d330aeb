#pragma once

#include "args.h"

#include "engine/common/money.h"

#include <QString>
#include <optional>

// Exact decimal options for the money verbs (DESIGN §2): values are parsed as decimal text,
// never through binary floating point, and bad ones are reported naming the flag.
namespace headroom::cli {

// A plain decimal option ("0.4", "87.8325"); nullopt when absent. Throws UsageError naming
// the flag for anything else ("87.8325/8", "1e3", "abc").
std::optional<engine::Decimal> decimalOption(const Args &args, const QString &name);
// A required decimal option checked against [min, max]; `what` says why it is needed.
engine::Decimal decimalInRange(const Args &args, const QString &name, engine::Decimal min,
                               engine::Decimal max, const QString &what);

// --currency: an ISO 4217 code of three letters (default USD), upper-cased.
std::string currencyOption(const Args &args);
// --per N: the rates given are instance prices for N GPUs (default 1).
qint64 gpusPerInstance(const Args &args);
// A price per GPU-hour from `name`, > 0, divided exactly by `perInstance`; nullopt when the
// option is absent.
std::optional<engine::Money> rateOption(const Args &args, const QString &name, const std::string &currency,
                                        qint64 perInstance);
// As rateOption, but the option is required.
engine::Money requiredRate(const Args &args, const QString &name, const std::string &currency,
                           qint64 perInstance, const QString &what);

// A rate as exact decimal text with at least two decimals, for JSON: "6.88", "10.9790625".
QString rateString(const engine::Money &rate);
// "$4,227.07" — an amount rounded to cents for display.
QString moneyText(const engine::Money &money);
// A rate with every decimal it has, at least two: "$6.88", "$10.9790625".
QString rateText(const engine::Money &rate);
// A decimal with thousands separators and every decimal it has: "25.6", "1,024".
QString decimalText(engine::Decimal value);

} // namespace headroom::cli
