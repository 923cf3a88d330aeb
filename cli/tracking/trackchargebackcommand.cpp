#include "trackchargebackcommand.h"

#include "cli/common/format.h"

#include "engine/common/errors.h"
#include "engine/tracking/chargeback.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/tracking/chargebackinputs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace headroom::cli {

namespace {

using engine::ChargebackBy;
using engine::Decimal;

const char kUsage[] = R"(
       headroom track chargeback --claims FILE.csv (--focus FILE.csv | --scenario NAME) [--metrics FILE.csv]
                              [--from T] [--to T] [--mig-basis compute|memory|larger]
                              [--idle apart|pro-rata] [--by tenant|model|namespace]
                              [--currency C] [--json | --csv | --kueue-config]

track chargeback
  A shared GPU pool's bill split over its tenants. The claims file is a ledger of which tenant
  held which GPU of which machine, when and how (core/store/README.md, "GPU claims CSV");
  every charge of the FOCUS export whose ResourceId names one of its machines and whose
  ChargePeriodStart lies in [--from, --to) is split over its own period by slice-hours:
    MIG          compute slices / 7, memory slices / 8 or the larger (--mig-basis; default compute)
    time-slicing the configured (or measured) share; MPS likewise
    over-commit  resident memory / the GPU's memory (the catalog's)
    exclusive    the whole GPU
  part = EffectiveCost × Σ share × seconds held ÷ (GPUs of the machine × the charge's seconds).
  What no claim held is idle capacity, shown apart, or spread over the charge's claims in
  proportion (--idle pro-rata). Each table re-adds to the invoice to the cent: amounts are
  rounded down to the cent and the cents left over go to the largest remainders (ties by name).
  --scenario NAME in place of --focus splits a fleet scenario's planned cost instead: each
  machine of the claims names a pool of the scenario (resource_id = pool name, resource_gpus =
  its GPUs), charged its planned cost per day on every UTC day the claims cover.
  Beside it, the quota view: the same charged amounts split by claim-hours, as a Kueue quota
  counts claims rather than slices (a 1g.10gb and a 3g.40gb claim count 1 each), and the
  difference per key. --kueue-config prints the Kueue configuration (resources.transformations
  per MIG profile) under which a quota counts slices instead.
  Cost per million tokens: the key's cost ÷ the tokens its claims' deployments served in the
  period (vllm:prompt_tokens_total and generation_tokens_total of --metrics, else of the
  workspace's serving-metrics imports; none when neither has them): per 1M input, per 1M output
  and per 1M tokens of both, each the whole cost over that count; per UTC day in the JSON's
  "days" (each key's daily costs re-add to its cost, by largest remainder).
  --from T, --to T     ISO 8601 date or time (UTC unless an offset is given); default the span
                       of the pool's charges
  --by KEY             the table printed and written by --csv; default tenant
  --csv                FOCUS 1.3-style allocation rows: ChargePeriodStart, ChargePeriodEnd,
                       BillingCurrency, EffectiveCost, AllocatedMethodId, AllocatedResourceId,
                       AllocatedTags, x_SliceHours, x_ClaimHours, x_QuotaEffectiveCost
  --json               {"currency", "from", "to", "mig_basis", "idle", "invoice", "charges",
                       "pool_gpu_hours", "outside_pool_cost", "outside_pool_charges",
                       "tables": {"tenant"|"model"|"namespace": [{"key", "idle", "slice_hours",
                       "claim_hours", "cost", "exact_cost", "quota_cost", "quota_difference",
                       "input_tokens", "output_tokens", "cost_per_million_input",
                       "cost_per_million_output", "cost_per_million_tokens", "days": [{"date", "cost",
                       "input_tokens", "output_tokens", "cost_per_million_tokens"}]}]},
                       "kueue_config",
                       "warnings"}
)";

const std::vector<OptionSpec> kOptions = {
    {QStringLiteral("claims")}, {QStringLiteral("from")},       {QStringLiteral("to")},
    {QStringLiteral("mig-basis")}, {QStringLiteral("idle")},    {QStringLiteral("by")},
    {QStringLiteral("csv"), false}, {QStringLiteral("kueue-config"), false},
};

QString qs(const std::string &text) { return QString::fromStdString(text); }

int64_t timeOption(const Args &args, const QString &name)
{
    const QString text = *args.text(name);
    const std::optional<qint64> seconds = parseUtcTime(text);
    if (!seconds)
        throw UsageError(QStringLiteral("track chargeback: %1 '%2' is not an ISO 8601 date or time such as 2026-03-01 "
                                        "or 2026-03-01T00:00:00Z")
                             .arg(Args::flag(name), printable(text)));
    return *seconds;
}

template <typename Enum>
Enum choice(const Args &args, const QString &name, const std::vector<std::pair<QString, Enum>> &values, const QString &verb)
{
    const auto text = args.text(name);
    if (!text)
        return values.front().second;
    QStringList known;
    for (const auto &[label, value] : values) {
        if (*text == label)
            return value;
        known << label;
    }
    throw UsageError(QStringLiteral("%1: %2 '%3' is not one of %4")
                         .arg(verb, Args::flag(name), printable(*text), known.join(QLatin1String(", "))));
}

QString perMillion(const Decimal &cost, double tokens)
{
    const auto value = engine::costPerMillion(cost, tokens);
    return value ? qs(value->toString(4)) : QStringLiteral("–");
}

QJsonValue perMillionJson(const Decimal &cost, double tokens)
{
    const auto value = engine::costPerMillion(cost, tokens);
    return value ? QJsonValue(qs(value->toString(4))) : QJsonValue();
}

} // namespace

ChargebackChoices chargebackChoices(const Args &args, const QString &verb)
{
    ChargebackChoices choices;
    choices.basis = choice<engine::MigBasis>(args, QStringLiteral("mig-basis"),
                                             {{QStringLiteral("compute"), engine::MigBasis::Compute},
                                              {QStringLiteral("memory"), engine::MigBasis::Memory},
                                              {QStringLiteral("larger"), engine::MigBasis::Larger}},
                                             verb);
    choices.idle = choice<engine::IdleShare>(args, QStringLiteral("idle"),
                                             {{QStringLiteral("apart"), engine::IdleShare::Apart},
                                              {QStringLiteral("pro-rata"), engine::IdleShare::ProRata}},
                                             verb);
    choices.by = choice<ChargebackBy>(args, QStringLiteral("by"),
                                      {{QStringLiteral("tenant"), ChargebackBy::Tenant},
                                       {QStringLiteral("model"), ChargebackBy::Model},
                                       {QStringLiteral("namespace"), ChargebackBy::Namespace}},
                                      verb);
    return choices;
}

const std::vector<OptionSpec> &chargebackTrackOptions()
{
    return kOptions;
}

QString chargebackTrackUsage()
{
    return QString::fromUtf8(kUsage);
}

int runChargebackTrack(const Args &args, Context &context)
{
    const auto claimsPath = args.text(QStringLiteral("claims"));
    const auto focusPath = args.text(QStringLiteral("focus"));
    if (!claimsPath || claimsPath->isEmpty())
        throw UsageError(QStringLiteral("track chargeback: --claims FILE.csv is required (the ledger of who held which GPU)"));
    const auto scenario = args.text(QStringLiteral("scenario"));
    if (scenario && focusPath)
        throw UsageError(QStringLiteral("track chargeback: give --focus (the bill) or --scenario (the plan), not both"));
    if (!scenario && (!focusPath || focusPath->isEmpty()))
        throw UsageError(QStringLiteral("track chargeback: --focus FILE.csv is required (the bill's rows per ResourceId; "
                                        "an import keeps only summaries), or --scenario NAME for a plan's cost"));
    const int formats = int(args.has(QStringLiteral("json"))) + int(args.has(QStringLiteral("csv")))
                        + int(args.has(QStringLiteral("kueue-config")));
    if (formats > 1)
        throw UsageError(QStringLiteral("track chargeback: give one of --json, --csv and --kueue-config"));

    const ChargebackChoices choices = chargebackChoices(args, QStringLiteral("track chargeback"));
    engine::ChargebackOptions options;
    options.basis = choices.basis;
    options.idle = choices.idle;
    const ChargebackBy by = choices.by;
    if (const auto currency = args.text(QStringLiteral("currency")))
        options.currency = currency->toUpper().toStdString();

    const QString metricsPath = args.text(QStringLiteral("metrics")).value_or(QString());
    const store::ChargebackInputs inputs =
        scenario ? store::planChargebackInputs(context.workspace(), *claimsPath, *scenario, metricsPath)
                 : store::readChargebackInputs(context.workspace(), *claimsPath, *focusPath, metricsPath);
    for (const std::string &warning : inputs.charges.warnings)
        context.err() << "warning: " << qs(warning) << '\n';
    // The period: the options, else the span of the pool's charges.
    options.from = args.has(QStringLiteral("from")) ? timeOption(args, QStringLiteral("from")) : inputs.firstCharge;
    options.to = args.has(QStringLiteral("to")) ? timeOption(args, QStringLiteral("to")) : inputs.lastCharge;
    if (options.to <= options.from)
        throw UsageError(QStringLiteral("track chargeback: --to must be after --from"));

    const engine::ChargebackResult result = store::runChargeback(inputs, options);
    for (const std::string &warning : result.warnings)
        context.err() << "warning: " << qs(warning) << '\n';
    const std::string kueue = engine::kueueQuotaConfig(inputs.resources, inputs.claims, options.basis);

    if (args.has(QStringLiteral("kueue-config"))) {
        context.out() << qs(kueue);
        return 0;
    }
    const engine::ChargebackTable &table = result.table(by);
    if (args.has(QStringLiteral("csv"))) {
        context.out() << QString::fromUtf8(store::allocationCsv(result, options, by));
        return 0;
    }
    if (args.has(QStringLiteral("json"))) {
        QJsonObject tables;
        for (const engine::ChargebackTable &t : result.tables) {
            QJsonArray lines;
            for (const engine::ChargebackLine &line : t.lines) {
                QJsonArray days;
                for (const engine::ChargebackDay &day : line.days)
                    days.append(QJsonObject{
                        {QStringLiteral("date"), isoUtc(day.day * 86400).left(10)},
                        {QStringLiteral("cost"), qs(day.cost.toString(2))},
                        {QStringLiteral("input_tokens"), day.inputTokens},
                        {QStringLiteral("output_tokens"), day.outputTokens},
                        {QStringLiteral("cost_per_million_tokens"),
                         perMillionJson(day.cost, day.inputTokens + day.outputTokens)},
                    });
                lines.append(QJsonObject{
                    {QStringLiteral("key"), qs(line.key)},
                    {QStringLiteral("idle"), line.idle},
                    {QStringLiteral("slice_hours"), line.sliceHours},
                    {QStringLiteral("claim_hours"), line.claimHours},
                    {QStringLiteral("cost"), qs(line.cost.toString(2))},
                    {QStringLiteral("exact_cost"), qs(line.exact.toString())},
                    {QStringLiteral("quota_cost"), qs(line.quotaCost.toString(2))},
                    {QStringLiteral("quota_difference"), qs(line.quotaDifference.toString(2))},
                    {QStringLiteral("input_tokens"), line.hasTokens ? QJsonValue(line.inputTokens) : QJsonValue()},
                    {QStringLiteral("output_tokens"), line.hasTokens ? QJsonValue(line.outputTokens) : QJsonValue()},
                    {QStringLiteral("cost_per_million_input"), perMillionJson(line.cost, line.inputTokens)},
                    {QStringLiteral("cost_per_million_output"), perMillionJson(line.cost, line.outputTokens)},
                    {QStringLiteral("cost_per_million_tokens"),
                     perMillionJson(line.cost, line.inputTokens + line.outputTokens)},
                    {QStringLiteral("days"), days},
                });
            }
            tables.insert(qs(engine::toString(t.by)), lines);
        }
        QJsonArray warnings;
        for (const std::string &warning : result.warnings)
            warnings.append(qs(warning));
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("currency"), qs(result.currency)},
            {QStringLiteral("from"), isoUtc(options.from)},
            {QStringLiteral("to"), isoUtc(options.to)},
            {QStringLiteral("mig_basis"), qs(engine::toString(options.basis))},
            {QStringLiteral("idle"), qs(engine::toString(options.idle))},
            {QStringLiteral("invoice"), qs(result.invoice.toString(2))},
            {QStringLiteral("charges"), qint64(result.charges)},
            {QStringLiteral("pool_gpu_hours"), result.poolGpuHours},
            {QStringLiteral("outside_pool_cost"), qs(result.outsideCost.toString(2))},
            {QStringLiteral("outside_pool_charges"), qint64(result.outsideCharges)},
            {QStringLiteral("tables"), tables},
            {QStringLiteral("kueue_config"), qs(kueue)},
            {QStringLiteral("warnings"), warnings},
        });
        return 0;
    }

    QTextStream &out = context.out();
    out << "Chargeback " << isoUtc(options.from) << " to " << isoUtc(options.to) << ", " << qs(result.currency) << ": "
        << countOf(result.charges, QStringLiteral("charge"), QStringLiteral("charges")) << " of "
        << countOf(qint64(inputs.resources.size()), QStringLiteral("machine"), QStringLiteral("machines")) << ", "
        << formatDecimal(result.poolGpuHours, 1) << " GPU-hours; MIG by " << qs(engine::toString(options.basis))
        << " slices, idle " << (options.idle == engine::IdleShare::Apart ? "apart" : "spread pro rata") << ".\n\n";
    Table text({{qs(engine::toString(by))},
                {QStringLiteral("slice-h"), Table::Align::Right},
                {QStringLiteral("claim-h"), Table::Align::Right},
                {QStringLiteral("cost"), Table::Align::Right},
                {QStringLiteral("quota split"), Table::Align::Right},
                {QStringLiteral("quota − cost"), Table::Align::Right},
                {QStringLiteral("per 1M in"), Table::Align::Right},
                {QStringLiteral("per 1M out"), Table::Align::Right},
                {QStringLiteral("per 1M tokens"), Table::Align::Right}});
    Decimal total, quotaTotal;
    double slices = 0, claims = 0;
    for (const engine::ChargebackLine &line : table.lines) {
        total += line.cost;
        quotaTotal += line.quotaCost;
        slices += line.sliceHours;
        claims += line.claimHours;
        text.addRow({qs(line.key), line.idle ? QString() : formatDecimal(line.sliceHours, 2, true),
                     line.idle ? QString() : formatDecimal(line.claimHours, 2, true), qs(line.cost.toString(2)),
                     qs(line.quotaCost.toString(2)), qs(line.quotaDifference.toString(2)),
                     perMillion(line.cost, line.inputTokens), perMillion(line.cost, line.outputTokens),
                     perMillion(line.cost, line.inputTokens + line.outputTokens)});
    }
    text.addRow({QStringLiteral("total"), formatDecimal(slices, 2, true), formatDecimal(claims, 2, true),
                 qs(total.toString(2)), qs(quotaTotal.toString(2)), QStringLiteral("0.00"), {}, {}, {}});
    text.write(out);
    out << "\nInvoice of the pool: " << qs(result.invoice.toString(2)) << ' ' << qs(result.currency)
        << " (EffectiveCost; exact " << qs(result.invoiceExact.toString()) << ").";
    if (result.outsideCharges > 0)
        out << " Charges of other resources in the period, not allocated: " << qs(result.outsideCost.toString(2)) << " in "
            << countOf(result.outsideCharges, QStringLiteral("charge"), QStringLiteral("charges")) << '.';
    out << "\nQuota split: what the claims were charged, divided by claim-hours as a Kueue quota counts claims "
           "(--kueue-config for the configuration that counts slices).\n";
    return 0;
}

} // namespace headroom::cli
