#include "scenariocommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/common/moneyoptions.h"

#include "engine/fleet/scenario.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/workspace.h"

#include <QJsonArray>
#include <QJsonObject>
#include <limits>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom scenario list [--json]
       headroom scenario evaluate NAME [--json]
       headroom scenario compare NAME NAME [NAME [NAME]] [--json]
       headroom scenario history NAME [--json]
       headroom scenario restore NAME --version N

Fleet scenarios of the workspace (DESIGN §3.9): GPU pools — a static base (owned or
reserved; exclusive, MIG, time-sliced or MPS) and an elastic top (on-demand or spot) —
serving workloads and training jobs at a rate card's prices.

  list       every scenario: name, version, last edit, author, description
  evaluate   GPUs per pool, utilization (GPU-hours running replicas ÷ provisioned over a year
             of hourly demand) and the share the traffic keeps busy, exact cost per day, per 30-day month and over the term, and warnings
             (missing workloads or rate cards, unpriced GPUs, lead times, packing advice)
  compare    2–4 scenarios side by side, deltas against the first
  history    every kept version of a scenario, newest first: who saved it (the database
             role on a server, the OS user for a file) and when (UTC)
  restore    saves version N's document again, as a new version (the history keeps all)

Options:
  --json     print JSON instead of a table
  --version  the version to restore (see scenario history)

JSON keys (evaluate): pools [{name, gpu, tier, gpus, utilization, busy_utilization, role,
partitioning, priced, cost_per_day, cost_per_month}], utilization, busy_utilization,
kv_residency ("request" or "session": what the workloads were sized for), cost_per_day, cost_per_month, cost_over_term,
currency, warnings [str]; money as exact decimal strings rounded to cents ("4227.07").
(list): scenarios [{name, description, author, version, updated_at, updated_by}].
(history): scenario, versions [{version, changed_by, changed_at, description}].
(compare): scenarios [str], metrics [{key, label, unit, values [str], deltas [str]}].
)";

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString tierText(engine::PoolTier tier)
{
    return qs(std::string(engine::toString(tier)));
}

QString percentText(double share)
{
    return formatDecimal(share * 100.0, 1, true) + QStringLiteral(" %");
}

int runList(const Args &args, Context &context)
{
    if (args.positionals().size() > 1)
        throw UsageError(QStringLiteral("scenario list takes no names (got '%1')").arg(args.positionals().at(1)));
    const auto summaries = context.workspace().scenarioSummaries();
    if (args.has(QStringLiteral("json"))) {
        QJsonArray list;
        for (const store::ScenarioSummary &s : summaries) {
            QJsonObject o;
            o.insert(QStringLiteral("name"), s.name);
            o.insert(QStringLiteral("description"), s.description);
            o.insert(QStringLiteral("author"), s.author);
            o.insert(QStringLiteral("version"), qint64(s.version));
            o.insert(QStringLiteral("updated_at"), s.updatedAt);
            o.insert(QStringLiteral("updated_by"), s.updatedBy);
            list.append(o);
        }
        context.out() << jsonText(QJsonObject{{QStringLiteral("scenarios"), list}});
        return 0;
    }
    if (summaries.empty()) {
        context.out() << "No scenarios in " << context.workspacePath() << ".\n";
        return 0;
    }
    Table table({{QStringLiteral("Scenario")},
                 {QStringLiteral("Version"), Table::Align::Right},
                 {QStringLiteral("Updated (UTC)")},
                 {QStringLiteral("By")},
                 {QStringLiteral("Author")},
                 {QStringLiteral("Description")}});
    for (const store::ScenarioSummary &s : summaries)
        table.addRow({s.name, QString::number(s.version), s.updatedAt.left(16).replace(QLatin1Char('T'), QLatin1Char(' ')),
                      s.updatedBy, s.author, s.description});
    table.write(context.out());
    return 0;
}

QJsonObject resultJson(const engine::ScenarioResult &r, const engine::Scenario &scenario)
{
    const engine::ScenarioMoneyTable shown = engine::scenarioMoneyTable(r);
    QJsonArray pools;
    for (const engine::PoolResult &p : r.pools) {
        QJsonObject o;
        o.insert(QStringLiteral("name"), qs(p.name));
        o.insert(QStringLiteral("gpu"), qs(p.gpuId));
        o.insert(QStringLiteral("tier"), tierText(p.tier));
        o.insert(QStringLiteral("gpus"), qint64(p.gpus));
        o.insert(QStringLiteral("utilization"), p.utilization);
        o.insert(QStringLiteral("busy_utilization"), p.busyUtilization);
        o.insert(QStringLiteral("role"), qs(std::string(engine::toString(p.role))));
        o.insert(QStringLiteral("partitioning"), qs(std::string(engine::toString(p.partitioning))));
        o.insert(QStringLiteral("priced"), p.priced);
        if (p.priced)
            o.insert(QStringLiteral("rate_per_gpu_hour"), qs(p.ratePerGpuHour.amount.toString()));
        o.insert(QStringLiteral("cost_per_day"), qs(p.costPerDay.cents()));
        o.insert(QStringLiteral("cost_per_month"), qs(p.costPerMonth.cents()));
        o.insert(QStringLiteral("cost_over_term"), qs(p.costOverTerm.cents()));
        if (p.commitment) {
            QJsonObject c;
            c.insert(QStringLiteral("term_months"), p.commitment->termMonths);
            c.insert(QStringLiteral("start_date"), qs(p.commitment->startDate));
            c.insert(QStringLiteral("end_date"), qs(p.commitment->endDate));
            c.insert(QStringLiteral("term_hours"), qint64(p.commitment->termHours));
            c.insert(QStringLiteral("total"), qs(p.commitment->total.cents()));
            c.insert(QStringLiteral("upfront"), qs(p.commitment->upfront.cents()));
            c.insert(QStringLiteral("in_horizon"), qs(p.commitment->inHorizon.cents()));
            c.insert(QStringLiteral("covers_term"), p.commitment->coversTerm);
            o.insert(QStringLiteral("commitment"), c);
        }
        pools.append(o);
    }
    QJsonArray warnings;
    for (const engine::ScenarioWarning &w : r.warnings)
        warnings.append(qs(w.message));
    QJsonObject o;
    o.insert(QStringLiteral("scenario"), qs(r.name));
    o.insert(QStringLiteral("pools"), pools);
    // Totals as printed: the sums of the pools' cents.
    o.insert(QStringLiteral("utilization"), r.utilization);
    o.insert(QStringLiteral("busy_utilization"), r.busyUtilization);
    o.insert(QStringLiteral("cost_per_day"), qs(shown.perDay.total.cents()));
    o.insert(QStringLiteral("cost_per_month"), qs(shown.perMonth.total.cents()));
    o.insert(QStringLiteral("cost_over_term"), qs(shown.overTerm.total.cents()));
    o.insert(QStringLiteral("horizon_months"), scenario.horizonMonths);
    o.insert(QStringLiteral("start_date"), qs(r.startDate));
    o.insert(QStringLiteral("end_date"), qs(r.endDate));
    o.insert(QStringLiteral("term_hours"), qint64(r.termHours));
    o.insert(QStringLiteral("currency"), qs(r.costPerDay.currency));
    o.insert(QStringLiteral("warnings"), warnings);
    return o;
}

int runEvaluate(const Args &args, Context &context)
{
    if (args.positionals().size() != 2)
        throw UsageError(QStringLiteral("scenario evaluate: give one scenario name (see headroom scenario --help)"));
    const QString name = args.positionals().at(1);
    const engine::Scenario scenario = findScenario(context.workspace(), name);
    const engine::ScenarioResult r =
        engine::evaluateScenario(scenario, store::scenarioInputs(context.workspace()));
    if (args.has(QStringLiteral("json"))) {
        QJsonObject json = resultJson(r, scenario);
        json.insert(QStringLiteral("kv_residency"),
                    qs(std::string(engine::toString(context.workspace().servingAssumptions().residency))));
        context.out() << jsonText(json);
        return 0;
    }
    QTextStream &out = context.out();
    out << "Scenario " << qs(r.name) << " — " << qs(scenario.provider) << ' ' << qs(scenario.region)
        << (scenario.asOfDate.empty() ? QString() : QStringLiteral(" as of ") + qs(scenario.asOfDate)) << "\n\n";
    Table table({{QStringLiteral("Pool")},
                 {QStringLiteral("GPU")},
                 {QStringLiteral("Tier")},
                 {QStringLiteral("Sharing")},
                 {QStringLiteral("GPUs"), Table::Align::Right},
                 {QStringLiteral("Utilization"), Table::Align::Right},
                 {QStringLiteral("Headroom at peak"), Table::Align::Right},
                 {QStringLiteral("Per GPU-hour"), Table::Align::Right},
                 {QStringLiteral("Per day"), Table::Align::Right},
                 {QStringLiteral("Per 30-day month"), Table::Align::Right},
                 {QStringLiteral("Over the term"), Table::Align::Right}});
    const engine::ScenarioMoneyTable shown = engine::scenarioMoneyTable(r);
    size_t priced = 0;
    for (const engine::PoolResult &p : r.pools) {
        const QString unpriced = QStringLiteral("unpriced");
        const size_t at = priced;
        if (p.priced)
            ++priced;
        table.addRow({qs(p.name), qs(p.gpuId), tierText(p.tier), qs(std::string(engine::toString(p.partitioning))),
                      formatInteger(p.gpus) + (p.autoSized ? QStringLiteral(" (auto)") : QString()),
                      percentText(p.utilization), countOf(p.headroomAtPeak, QStringLiteral("GPU"), QStringLiteral("GPUs"))
                          + QStringLiteral(" (%1 planned, %2 spare)").arg(formatInteger(p.plannedHeadroomGpus), formatInteger(p.spareAtPeak)),
                      p.priced ? rateText(p.ratePerGpuHour) : unpriced,
                      p.priced ? moneyText(shown.perDay.parts[at]) : unpriced,
                      p.priced ? moneyText(shown.perMonth.parts[at]) : unpriced,
                      p.priced ? moneyText(shown.overTerm.parts[at]) : unpriced});
    }
    table.addRow({QStringLiteral("Fleet"), QString(), QString(), QString(), QString(), QString(), QString(), QString(),
                  moneyText(shown.perDay.total), moneyText(shown.perMonth.total), moneyText(shown.overTerm.total)});
    table.write(out);
    out << '\n';
    writeFields(out, {{QStringLiteral("Static GPUs"), formatInteger(r.staticGpus)},
                      {QStringLiteral("Elastic GPUs at peak"), formatInteger(r.elasticPeakGpus)},
                      {QStringLiteral("Fleet utilization"), percentText(r.utilization)},
                      {QStringLiteral("Kept busy by the traffic"), percentText(r.busyUtilization)},
                      {QStringLiteral("KV residency"),
                       context.workspace().servingAssumptions().residency == engine::KvResidency::Session
                           ? QStringLiteral("session: workloads sized for every open session")
                           : QStringLiteral("request: workloads sized for requests in flight")},
                      {QStringLiteral("Cost per day"), moneyText(shown.perDay.total)},
                      {QStringLiteral("Cost per 30-day month"), moneyText(shown.perMonth.total)},
                      {QStringLiteral("Cost over the term (%1 months, %2 to %3, %4 h)")
                           .arg(scenario.horizonMonths)
                           .arg(qs(r.startDate), qs(r.endDate), formatInteger(r.termHours)),
                       moneyText(shown.overTerm.total)}});
    for (const engine::PoolResult &p : r.pools)
        if (p.priced && p.commitment && !p.commitment->coversTerm && p.gpus > 0)
            writeFields(out, {{QStringLiteral("Commitment owed, %1").arg(qs(p.name)),
                               QStringLiteral("%1 (%2 to %3, %4 h; %5 upfront; %6 in the term above)")
                                   .arg(moneyText(p.commitment->total), qs(p.commitment->startDate),
                                        qs(p.commitment->endDate), formatInteger(p.commitment->termHours),
                                        moneyText(p.commitment->upfront), moneyText(p.commitment->inHorizon))}});
    if (!r.warnings.empty()) {
        out << "\nWarnings:\n";
        for (const engine::ScenarioWarning &w : r.warnings)
            out << "  - " << qs(w.message) << '\n';
    }
    return 0;
}

QString metricValue(const engine::ComparisonMetric &m, const engine::Decimal &value, bool delta)
{
    QString sign = delta && !value.isNegative() && !value.isZero() ? QStringLiteral("+") : QString();
    if (m.unit == "money")
        return sign + moneyText(engine::Money{value, m.currency});
    if (m.unit == "ratio")
        return sign + formatDecimal(value.toDouble() * 100.0, 1, true) + (delta ? QStringLiteral(" pt") : QStringLiteral(" %"));
    return sign + formatDecimal(value.toDouble(), 0);
}

int runCompare(const Args &args, Context &context)
{
    const QStringList names = args.positionals().mid(1);
    if (names.size() < 2 || names.size() > 4)
        throw UsageError(QStringLiteral("scenario compare: give 2 to 4 scenario names (got %1)").arg(names.size()));
    std::vector<engine::ScenarioResult> results;
    const engine::ScenarioInputs inputs = store::scenarioInputs(context.workspace());
    for (const QString &name : names)
        results.push_back(engine::evaluateScenario(findScenario(context.workspace(), name), inputs));
    const engine::ScenarioComparison c = engine::compareScenarios(results);
    if (args.has(QStringLiteral("json"))) {
        QJsonArray metrics;
        for (const engine::ComparisonMetric &m : c.metrics) {
            QJsonArray values;
            QJsonArray deltas;
            for (size_t i = 0; i < m.values.size(); ++i) {
                const int decimals = m.unit == "money" ? 2 : (m.unit == "ratio" ? 4 : 0);
                values.append(qs(m.values[i].toString(decimals)));
                deltas.append(qs(m.deltas[i].toString(decimals)));
            }
            metrics.append(QJsonObject{{QStringLiteral("key"), qs(m.key)},
                                       {QStringLiteral("label"), qs(m.label)},
                                       {QStringLiteral("unit"), qs(m.unit)},
                                       {QStringLiteral("values"), values},
                                       {QStringLiteral("deltas"), deltas}});
        }
        QJsonArray scenarios;
        for (const std::string &name : c.scenarios)
            scenarios.append(qs(name));
        context.out() << jsonText(QJsonObject{{QStringLiteral("scenarios"), scenarios},
                                              {QStringLiteral("metrics"), metrics}});
        return 0;
    }
    std::vector<Table::Column> columns{{QStringLiteral("Metric")}};
    for (size_t i = 0; i < c.scenarios.size(); ++i) {
        columns.push_back({qs(c.scenarios[i]), Table::Align::Right});
        if (i > 0)
            columns.push_back({QStringLiteral("Δ vs %1").arg(qs(c.scenarios[0])), Table::Align::Right});
    }
    Table table(columns);
    for (const engine::ComparisonMetric &m : c.metrics) {
        QStringList row{qs(m.label)};
        for (size_t i = 0; i < m.values.size(); ++i) {
            row << metricValue(m, m.values[i], false);
            if (i > 0)
                row << metricValue(m, m.deltas[i], true);
        }
        table.addRow(row);
    }
    table.write(context.out());
    return 0;
}

QString scenarioName(const Args &args, const QString &action)
{
    if (args.positionals().size() != 2)
        throw UsageError(QStringLiteral("scenario %1: give one scenario name (see headroom scenario --help)").arg(action));
    return args.positionals().at(1);
}

int runHistory(const Args &args, Context &context)
{
    const QString name = scenarioName(args, QStringLiteral("history"));
    findScenario(context.workspace(), name);  // an unknown name is a usage error with suggestions
    const auto versions = context.workspace().scenarioHistory(name);
    if (args.has(QStringLiteral("json"))) {
        QJsonArray list;
        for (const store::ScenarioVersion &v : versions) {
            QJsonObject o;
            o.insert(QStringLiteral("version"), qint64(v.version));
            o.insert(QStringLiteral("changed_by"), v.changedBy);
            o.insert(QStringLiteral("changed_at"), v.changedAt);
            o.insert(QStringLiteral("description"), v.description);
            list.append(o);
        }
        context.out() << jsonText(QJsonObject{{QStringLiteral("scenario"), name}, {QStringLiteral("versions"), list}});
        return 0;
    }
    Table table({{QStringLiteral("Version"), Table::Align::Right},
                 {QStringLiteral("Changed (UTC)")},
                 {QStringLiteral("By")},
                 {QStringLiteral("Description")}});
    for (const store::ScenarioVersion &v : versions)
        table.addRow({QString::number(v.version), v.changedAt.left(19).replace(QLatin1Char('T'), QLatin1Char(' ')),
                      v.changedBy.isEmpty() ? QStringLiteral("—") : v.changedBy, v.description});
    table.write(context.out());
    return 0;
}

int runRestore(const Args &args, Context &context)
{
    const QString name = scenarioName(args, QStringLiteral("restore"));
    const auto version = args.integer(QStringLiteral("version"), 1, std::numeric_limits<qint64>::max());
    if (!version)
        throw UsageError(QStringLiteral("scenario restore: give the version to restore with --version N "
                                        "(see headroom scenario history %1)")
                             .arg(name));
    findScenario(context.workspace(), name);
    const int64_t restored = context.workspace().restoreScenario(name, *version);
    context.out() << "Restored scenario " << name << " to version " << *version << "'s document as version "
                  << restored << ".\n";
    return 0;
}

int runScenario(const QStringList &argList, Context &context)
{
    const Args args(argList, {{QStringLiteral("json"), false}, {QStringLiteral("version"), true}});
    if (args.positionals().isEmpty())
        throw UsageError(QStringLiteral("scenario: give an action: list, evaluate, compare, history or restore"));
    const QString action = args.positionals().constFirst();
    if (action == QLatin1String("list"))
        return runList(args, context);
    if (action == QLatin1String("evaluate"))
        return runEvaluate(args, context);
    if (action == QLatin1String("compare"))
        return runCompare(args, context);
    if (action == QLatin1String("history"))
        return runHistory(args, context);
    if (action == QLatin1String("restore"))
        return runRestore(args, context);
    throw UsageError(QStringLiteral("scenario: unknown action '%1'; known: list, evaluate, compare, history, restore")
                         .arg(action));
}

} // namespace

engine::Scenario findScenario(const store::Workspace &workspace, const QString &name)
{
    if (auto scenario = workspace.scenario(name))
        return std::move(*scenario);
    const QStringList names = workspace.scenarioNames();
    if (names.isEmpty())
        throw UsageError(QStringLiteral("unknown scenario '%1': the workspace %2 has no scenarios")
                             .arg(name, workspace.path()));
    throw UsageError(QStringLiteral("unknown scenario '%1'; closest: %2")
                         .arg(name, closestMatches(name, names).join(QLatin1String(", "))));
}

Command scenarioCommand()
{
    return {QStringLiteral("scenario"),
            QStringLiteral("list, evaluate, compare fleet scenarios (GPUs per pool, utilization, money, warnings); their history and restore"),
            QString::fromUtf8(kUsage), &runScenario};
}

} // namespace headroom::cli
