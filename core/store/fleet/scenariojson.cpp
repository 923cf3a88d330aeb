#include "scenariojson.h"

#include "store/common/importlimits.h"
#include "store/common/jsonsupport.h"
#include "store/common/storeerror.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QStringList>
#include <cmath>
#include <limits>

namespace headroom::store {

namespace {

using engine::Decimal;

// Whole numbers above 2^53 are not exact in a JSON number (a double).
constexpr int64_t kMaxExactInteger = int64_t(1) << 53;

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QJsonArray stringArray(const std::vector<std::string> &values)
{
    QJsonArray array;
    for (const std::string &value : values)
        array.append(qs(value));
    return array;
}

// Reads one JSON object, naming "<source>: field \"<path>\": ..." in every error.
class Reader {
public:
    Reader(const QJsonObject &object, QString source, QString path)
        : m_object(object), m_source(std::move(source)), m_path(std::move(path))
    {
    }

    [[noreturn]] void fail(const QString &key, const QString &message) const
    {
        throw StoreError(QStringLiteral("%1: field \"%2\": %3").arg(m_source, field(key), message));
    }

    QString field(const QString &key) const { return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key; }

    void allowOnly(const QStringList &keys) const
    {
        for (const QString &key : m_object.keys()) {
            if (!keys.contains(key))
                fail(shownValue(key), QStringLiteral("unknown key (expected one of %1)").arg(keys.join(QStringLiteral(", "))));
        }
    }

    bool has(const QString &key) const { return m_object.contains(key); }

    QJsonValue require(const QString &key) const
    {
        if (!m_object.contains(key))
            fail(key, QStringLiteral("is missing"));
        return m_object.value(key);
    }

    std::string string(const QString &key, bool required = false, const std::string &fallback = {}) const
    {
        if (!has(key)) {
            if (required)
                require(key);
            return fallback;
        }
        const QJsonValue value = m_object.value(key);
        if (!value.isString())
            fail(key, QStringLiteral("expected a string, got %1").arg(jsonTypeName(value)));
        const QString text = value.toString();
        if (text.size() > kMaxJsonStringChars)
            fail(key, jsonStringTooLongMessage(text));
        return text.toStdString();
    }

    double number(const QString &key, double fallback) const
    {
        if (!has(key))
            return fallback;
        const QJsonValue value = m_object.value(key);
        if (!value.isDouble())
            fail(key, QStringLiteral("expected a number, got %1").arg(jsonTypeName(value)));
        return value.toDouble();
    }

    // A whole number in [min, max]; messages show the number as the document wrote it.
    int64_t integer(const QString &key, int64_t fallback, int64_t min = -kMaxExactInteger,
                    int64_t max = kMaxExactInteger) const
    {
        if (!has(key))
            return fallback;
        const double value = number(key, 0);
        const QString text = QString::fromUtf8(jsonScalarText(m_object.value(key)));
        if (value != std::floor(value))
            fail(key, QStringLiteral("expected a whole number, got %1").arg(text));
        // Compared as doubles before any conversion: no value wraps on its way in.
        if (!(value >= double(min) && value <= double(max)))
            fail(key, QStringLiteral("%1 is outside %2..%3").arg(text).arg(min).arg(max));
        return int64_t(value);
    }

    // A whole number that fits an int, for counts and durations held as int.
    int integer32(const QString &key, int fallback) const
    {
        return int(integer(key, fallback, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
    }

    bool boolean(const QString &key, bool fallback) const
    {
        if (!has(key))
            return fallback;
        const QJsonValue value = m_object.value(key);
        if (!value.isBool())
            fail(key, QStringLiteral("expected true or false, got %1").arg(jsonTypeName(value)));
        return value.toBool();
    }

    Decimal decimal(const QString &key) const
    {
        const QJsonValue value = require(key);
        if (!value.isString())
            fail(key, QStringLiteral("expected a decimal number as a string (\"0.1\"), got %1")
                          .arg(jsonTypeName(value)));
        const auto parsed = Decimal::parse(value.toString().toStdString());
        if (!parsed)
            fail(key, QStringLiteral("%1 is not a decimal number").arg(quotedValue(value.toString())));
        return *parsed;
    }

    std::vector<std::string> strings(const QString &key) const
    {
        std::vector<std::string> out;
        if (!has(key))
            return out;
        const QJsonValue value = m_object.value(key);
        if (!value.isArray())
            fail(key, QStringLiteral("expected an array of strings, got %1").arg(jsonTypeName(value)));
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!array.at(i).isString())
                fail(QStringLiteral("%1[%2]").arg(key).arg(i),
                     QStringLiteral("expected a string, got %1").arg(jsonTypeName(array.at(i))));
            const QString text = array.at(i).toString();
            if (text.size() > kMaxJsonStringChars)
                fail(QStringLiteral("%1[%2]").arg(key).arg(i), jsonStringTooLongMessage(text));
            out.push_back(text.toStdString());
        }
        return out;
    }

    Reader object(const QString &key) const
    {
        const QJsonValue value = m_object.value(key);
        if (!value.isObject())
            fail(key, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
        return Reader(value.toObject(), m_source, field(key));
    }

    template <typename Enum, typename Parse>
    Enum choice(const QString &key, Enum fallback, Parse parse, const QString &allowed) const
    {
        if (!has(key))
            return fallback;
        const std::string text = string(key);
        const auto parsed = parse(text);
        if (!parsed)
            fail(key, QStringLiteral("\"%1\" is not one of %2").arg(qs(text), allowed));
        return *parsed;
    }

    const QJsonObject &json() const { return m_object; }
    const QString &source() const { return m_source; }

private:
    QJsonObject m_object;
    QString m_source;
    QString m_path;
};

template <typename Enum>
QString names(const std::vector<Enum> &values)
{
    QStringList out;
    for (Enum value : values)
        out << qs(std::string(engine::toString(value)));
    return out.join(QStringLiteral(", "));
}

engine::Pool poolFromJson(const Reader &r)
{
    r.allowOnly({QStringLiteral("name"), QStringLiteral("gpu"), QStringLiteral("sizing"), QStringLiteral("gpus"),
                 QStringLiteral("tier"), QStringLiteral("partitioning"), QStringLiteral("mig_layout"),
                 QStringLiteral("workloads"), QStringLiteral("training_jobs"), QStringLiteral("deployments"),
                 QStringLiteral("owned_rate_per_gpu_hour")});
    engine::Pool pool;
    pool.name = r.string(QStringLiteral("name"), true);
    pool.gpuId = r.string(QStringLiteral("gpu"), true);
    pool.sizing = r.choice(QStringLiteral("sizing"), engine::PoolSizing::Fixed, engine::parsePoolSizing,
                           QStringLiteral("fixed, auto"));
    pool.gpus = r.integer(QStringLiteral("gpus"), 0);
    pool.tier = r.choice(QStringLiteral("tier"), engine::PoolTier::Reserved1y, engine::parsePoolTier,
                         names(engine::allPoolTiers()));
    pool.partitioning = r.choice(QStringLiteral("partitioning"), engine::Partitioning::Exclusive,
                                 engine::parsePartitioning, names(engine::allPartitionings()));
    if (r.has(QStringLiteral("mig_layout"))) {
        const QJsonValue layout = r.json().value(QStringLiteral("mig_layout"));
        if (layout.isString()) {
            if (layout.toString() != QLatin1String("auto"))
                r.fail(QStringLiteral("mig_layout"),
                       QStringLiteral("expected \"auto\" or an array of MIG profile names, got %1")
                           .arg(quotedValue(layout.toString())));
        } else {
            pool.migProfiles = r.strings(QStringLiteral("mig_layout"));
            if (pool.migProfiles.empty())
                r.fail(QStringLiteral("mig_layout"), QStringLiteral("an explicit layout lists at least one profile; "
                                                                    "write \"auto\" to pack automatically"));
        }
    }
    pool.workloads = r.strings(QStringLiteral("workloads"));
    pool.trainingJobs = r.strings(QStringLiteral("training_jobs"));
    if (r.has(QStringLiteral("deployments"))) {
        const QJsonValue deployments = r.json().value(QStringLiteral("deployments"));
        if (!deployments.isArray())
            r.fail(QStringLiteral("deployments"),
                   QStringLiteral("expected an array of deployments, got %1").arg(jsonTypeName(deployments)));
        const QJsonArray array = deployments.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString at = QStringLiteral("deployments[%1]").arg(i);
            if (!array.at(i).isObject())
                r.fail(at, QStringLiteral("expected an object, got %1").arg(jsonTypeName(array.at(i))));
            const Reader d(array.at(i).toObject(), r.source(), r.field(at));
            d.allowOnly({QStringLiteral("workload"), QStringLiteral("weights"), QStringLiteral("kv"), QStringLiteral("tp"),
                         QStringLiteral("mig_profile"), QStringLiteral("disaggregated")});
            engine::PoolDeployment deployment;
            deployment.workload = d.string(QStringLiteral("workload"), true);
            deployment.weights = d.choice(QStringLiteral("weights"), deployment.weights, engine::parseWeightPrecision,
                                          QStringLiteral("bf16, fp8, int4"));
            deployment.kv = d.choice(QStringLiteral("kv"), deployment.kv, engine::parseKvPrecision,
                                     QStringLiteral("bf16, fp8"));
            deployment.tp = int(d.integer(QStringLiteral("tp"), 1, 1, engine::kMaxTensorParallel));
            deployment.migProfile = d.string(QStringLiteral("mig_profile"), false);
            deployment.disaggregated = d.boolean(QStringLiteral("disaggregated"), false);
            pool.deployments.push_back(deployment);
        }
    }
    if (r.has(QStringLiteral("owned_rate_per_gpu_hour")))
        pool.ownedRatePerGpuHour = r.decimal(QStringLiteral("owned_rate_per_gpu_hour"));
    return pool;
}

} // namespace

bool isScenarioJson(const QJsonObject &object)
{
    // A catalog holds "gpus" and/or "models"; anything with a scenario's own keys is meant as
    // a scenario, so a document missing "name" or "pools" is reported as a scenario.
    if (object.contains(QStringLiteral("gpus")) || object.contains(QStringLiteral("models")))
        return false;
    for (const char *key : {"name", "pools", "rate_card", "horizon_months", "start_date", "spot_overhead",
                            "autoscale", "policy", "description", "author"}) {
        if (object.contains(QLatin1String(key)))
            return true;
    }
    return false;
}

QJsonObject scenarioToJson(const engine::Scenario &s)
{
    QJsonObject object;
    object.insert(QStringLiteral("name"), qs(s.name));
    object.insert(QStringLiteral("description"), qs(s.description));
    object.insert(QStringLiteral("author"), qs(s.author));
    object.insert(QStringLiteral("horizon_months"), s.horizonMonths);
    if (!s.startDate.empty())
        object.insert(QStringLiteral("start_date"), qs(s.startDate));
    QJsonObject card;
    card.insert(QStringLiteral("provider"), qs(s.provider));
    card.insert(QStringLiteral("region"), qs(s.region));
    card.insert(QStringLiteral("as_of"), qs(s.asOfDate));
    card.insert(QStringLiteral("need_date"), qs(s.needDate));
    object.insert(QStringLiteral("rate_card"), card);
    object.insert(QStringLiteral("spot_overhead"), qs(s.spotOverhead.toString()));
    QJsonArray pools;
    for (const engine::Pool &pool : s.pools) {
        QJsonObject p;
        p.insert(QStringLiteral("name"), qs(pool.name));
        p.insert(QStringLiteral("gpu"), qs(pool.gpuId));
        p.insert(QStringLiteral("sizing"), qs(std::string(engine::toString(pool.sizing))));
        p.insert(QStringLiteral("gpus"), qint64(pool.gpus));
        p.insert(QStringLiteral("tier"), qs(std::string(engine::toString(pool.tier))));
        p.insert(QStringLiteral("partitioning"), qs(std::string(engine::toString(pool.partitioning))));
        if (pool.partitioning == engine::Partitioning::Mig || !pool.migProfiles.empty()) {
            if (pool.migProfiles.empty())
                p.insert(QStringLiteral("mig_layout"), QStringLiteral("auto"));
            else
                p.insert(QStringLiteral("mig_layout"), stringArray(pool.migProfiles));
        }
        p.insert(QStringLiteral("workloads"), stringArray(pool.workloads));
        p.insert(QStringLiteral("training_jobs"), stringArray(pool.trainingJobs));
        if (!pool.deployments.empty()) {
            QJsonArray deployments;
            for (const engine::PoolDeployment &d : pool.deployments) {
                QJsonObject entry;
                entry.insert(QStringLiteral("workload"), qs(d.workload));
                entry.insert(QStringLiteral("weights"), qs(std::string(engine::toString(d.weights))));
                entry.insert(QStringLiteral("kv"), qs(std::string(engine::toString(d.kv))));
                entry.insert(QStringLiteral("tp"), d.tp);
                if (!d.migProfile.empty())
                    entry.insert(QStringLiteral("mig_profile"), qs(d.migProfile));
                if (d.disaggregated)
                    entry.insert(QStringLiteral("disaggregated"), true);
                deployments.append(entry);
            }
            p.insert(QStringLiteral("deployments"), deployments);
        }
        if (pool.ownedRatePerGpuHour)
            p.insert(QStringLiteral("owned_rate_per_gpu_hour"), qs(pool.ownedRatePerGpuHour->toString()));
        pools.append(p);
    }
    object.insert(QStringLiteral("pools"), pools);
    const engine::AutoscaleSettings &a = s.autoscale;
    QJsonObject autoscale;
    autoscale.insert(QStringLiteral("hpa_tolerance"), a.hpaTolerance);
    autoscale.insert(QStringLiteral("cooldown_seconds"), a.cooldownSeconds);
    autoscale.insert(QStringLiteral("polling_interval_seconds"), a.pollingIntervalSeconds);
    autoscale.insert(QStringLiteral("drain_to_zero"), a.drainToZero);
    if (a.maxQueueDelayMs)
        autoscale.insert(QStringLiteral("max_queue_delay_ms"), *a.maxQueueDelayMs);
    autoscale.insert(QStringLiteral("metric"), qs(a.metric));
    autoscale.insert(QStringLiteral("prometheus_address"), qs(a.prometheusAddress));
    autoscale.insert(QStringLiteral("namespace"), qs(a.kubernetesNamespace));
    autoscale.insert(QStringLiteral("fallback_gpus"), stringArray(a.fallbackGpuIds));
    object.insert(QStringLiteral("autoscale"), autoscale);
    QJsonObject policy;
    policy.insert(QStringLiteral("reserve_at"), qs(std::string(engine::toString(s.policy.reserveAt))));
    policy.insert(QStringLiteral("pack_mig_tenants"), s.policy.packMigTenants);
    object.insert(QStringLiteral("policy"), policy);
    return object;
}

engine::Scenario scenarioFromJson(const QJsonObject &object, const QString &sourceName)
{
    const Reader r(object, sourceName, QString());
    r.allowOnly({QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("author"),
                 QStringLiteral("horizon_months"), QStringLiteral("start_date"), QStringLiteral("rate_card"),
                 QStringLiteral("spot_overhead"), QStringLiteral("pools"), QStringLiteral("autoscale"),
                 QStringLiteral("policy")});
    engine::Scenario s;
    s.name = r.string(QStringLiteral("name"), true);
    s.description = r.string(QStringLiteral("description"));
    s.author = r.string(QStringLiteral("author"));
    s.horizonMonths = r.integer32(QStringLiteral("horizon_months"), s.horizonMonths);
    s.startDate = r.string(QStringLiteral("start_date"));
    const Reader card = r.object(QStringLiteral("rate_card"));
    card.allowOnly({QStringLiteral("provider"), QStringLiteral("region"), QStringLiteral("as_of"),
                    QStringLiteral("need_date")});
    s.provider = card.string(QStringLiteral("provider"), true);
    s.region = card.string(QStringLiteral("region"), true);
    s.asOfDate = card.string(QStringLiteral("as_of"));
    s.needDate = card.string(QStringLiteral("need_date"));
    if (r.has(QStringLiteral("spot_overhead")))
        s.spotOverhead = r.decimal(QStringLiteral("spot_overhead"));
    const QJsonValue pools = r.require(QStringLiteral("pools"));
    if (!pools.isArray())
        r.fail(QStringLiteral("pools"), QStringLiteral("expected an array of pools, got %1").arg(jsonTypeName(pools)));
    const QJsonArray array = pools.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = QStringLiteral("pools[%1]").arg(i);
        if (!array.at(i).isObject())
            r.fail(at, QStringLiteral("expected an object, got %1").arg(jsonTypeName(array.at(i))));
        s.pools.push_back(poolFromJson(Reader(array.at(i).toObject(), sourceName, at)));
    }
    if (r.has(QStringLiteral("autoscale"))) {
        const Reader a = r.object(QStringLiteral("autoscale"));
        a.allowOnly({QStringLiteral("hpa_tolerance"), QStringLiteral("cooldown_seconds"),
                     QStringLiteral("polling_interval_seconds"), QStringLiteral("drain_to_zero"),
                     QStringLiteral("max_queue_delay_ms"), QStringLiteral("metric"),
                     QStringLiteral("prometheus_address"), QStringLiteral("namespace"),
                     QStringLiteral("fallback_gpus")});
        engine::AutoscaleSettings &out = s.autoscale;
        out.hpaTolerance = a.number(QStringLiteral("hpa_tolerance"), out.hpaTolerance);
        out.cooldownSeconds = a.integer32(QStringLiteral("cooldown_seconds"), out.cooldownSeconds);
        out.pollingIntervalSeconds = a.integer32(QStringLiteral("polling_interval_seconds"),
                                                 out.pollingIntervalSeconds);
        out.drainToZero = a.boolean(QStringLiteral("drain_to_zero"), out.drainToZero);
        if (a.has(QStringLiteral("max_queue_delay_ms")))
            out.maxQueueDelayMs = a.number(QStringLiteral("max_queue_delay_ms"), 0);
        out.metric = a.string(QStringLiteral("metric"), false, out.metric);
        out.prometheusAddress = a.string(QStringLiteral("prometheus_address"), false, out.prometheusAddress);
        out.kubernetesNamespace = a.string(QStringLiteral("namespace"), false, out.kubernetesNamespace);
        out.fallbackGpuIds = a.strings(QStringLiteral("fallback_gpus"));
    }
    if (r.has(QStringLiteral("policy"))) {
        const Reader p = r.object(QStringLiteral("policy"));
        p.allowOnly({QStringLiteral("reserve_at"), QStringLiteral("pack_mig_tenants")});
        s.policy.reserveAt = p.choice(QStringLiteral("reserve_at"), s.policy.reserveAt, engine::parseReservePolicy,
                                      names(engine::allReservePolicies()));
        s.policy.packMigTenants = p.boolean(QStringLiteral("pack_mig_tenants"), s.policy.packMigTenants);
    }
    const auto problems = engine::validate(s);
    if (!problems.empty())
        throw StoreError(QStringLiteral("%1: scenario \"%2\": field \"%3\": %4")
                             .arg(sourceName, qs(s.name), qs(problems.front().field), qs(problems.front().message)));
    return s;
}

QByteArray scenarioJsonText(const engine::Scenario &scenario)
{
    return QJsonDocument(scenarioToJson(scenario)).toJson(QJsonDocument::Indented);
}

engine::Scenario parseScenario(const QByteArray &json, const QString &sourceName)
{
    const QJsonDocument document = parseJsonDocument(json, sourceName, limits::kScenarioJson);
    if (!document.isObject())
        throw StoreError(QStringLiteral("%1: a scenario must be a JSON object").arg(sourceName));
    return scenarioFromJson(document.object(), sourceName);
}

} // namespace headroom::store
