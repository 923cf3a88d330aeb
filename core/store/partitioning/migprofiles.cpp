#include "migprofiles.h"

#include "store/common/jsonsupport.h"
#include "store/common/storeerror.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QStringList>
#include <cmath>

// Q_INIT_RESOURCE declares a global symbol, so it must be used outside any namespace.
static void initMigProfileResources()
{
    Q_INIT_RESOURCE(headroom_catalogs);
}

namespace headroom::store {

namespace {

const QString kShippedMigProfiles = QStringLiteral(":/catalogs/mig_profiles.json");
const QString kTopKey = QStringLiteral("mig_profiles");
const QStringList kGpuKeys = {QStringLiteral("gpu"), QStringLiteral("compute_slices"), QStringLiteral("memory_slices"),
                              QStringLiteral("source"), QStringLiteral("profiles")};
const QStringList kProfileKeys = {QStringLiteral("name"), QStringLiteral("compute_slices"),
                                  QStringLiteral("memory_slices"), QStringLiteral("memory_gb"),
                                  QStringLiteral("starts"), QStringLiteral("max_instances"),
                                  QStringLiteral("media_extensions")};

// Reads one JSON object's fields; every failure names where it is and the field.
class FieldReader {
public:
    FieldReader(QString location, const QJsonObject &object) : m_location(std::move(location)), m_object(object) {}

    const QString &location() const { return m_location; }

    [[noreturn]] void fail(const QString &message) const
    {
        throw StoreError(m_location + QStringLiteral(": ") + message);
    }

    [[noreturn]] void failField(const QString &field, const QString &message) const
    {
        fail(QStringLiteral("field ") + quoted(field) + QStringLiteral(": ") + message);
    }

    void checkKeys(const QStringList &known) const
    {
        for (auto it = m_object.begin(); it != m_object.end(); ++it) {
            if (!known.contains(it.key()))
                fail(QStringLiteral("unknown field %1 (fields are: %2)").arg(quoted(it.key()), known.join(QStringLiteral(", "))));
        }
        for (const QString &key : known) {
            if (!m_object.contains(key))
                failField(key, QStringLiteral("missing"));
        }
    }

    QString string(const QString &key) const
    {
        const QJsonValue value = m_object.value(key);
        if (!value.isString())
            failField(key, QStringLiteral("expected a string, got ") + jsonTypeName(value));
        if (value.toString().trimmed().isEmpty())
            failField(key, QStringLiteral("is empty"));
        return value.toString();
    }

    double number(const QString &key) const
    {
        const QJsonValue value = m_object.value(key);
        if (!value.isDouble())
            failField(key, QStringLiteral("expected a number, got ") + jsonTypeName(value));
        return value.toDouble();
    }

    int integer(const QString &key, int min, int max) const
    {
        return wholeNumber(key, m_object.value(key), min, max);
    }

    int wholeNumber(const QString &field, const QJsonValue &value, int min, int max) const
    {
        if (!value.isDouble())
            failField(field, QStringLiteral("expected a whole number, got ") + jsonTypeName(value));
        const double x = value.toDouble();
        if (x != std::trunc(x))
            failField(field, QStringLiteral("expected a whole number, got %1").arg(x));
        if (x < min || x > max)
            failField(field, QStringLiteral("must be between %1 and %2, got %3").arg(min).arg(max).arg(x));
        return int(x);
    }

    bool boolean(const QString &key) const
    {
        const QJsonValue value = m_object.value(key);
        if (!value.isBool())
            failField(key, QStringLiteral("expected true or false, got ") + jsonTypeName(value));
        return value.toBool();
    }

    QJsonArray array(const QString &key) const
    {
        const QJsonValue value = m_object.value(key);
        if (!value.isArray())
            failField(key, QStringLiteral("expected an array, got ") + jsonTypeName(value));
        return value.toArray();
    }

private:
    QString m_location;
    const QJsonObject &m_object;
};

engine::MigProfile readProfile(const FieldReader &in, int memorySlices, int computeSlices)
{
    in.checkKeys(kProfileKeys);
    engine::MigProfile p;
    p.name = in.string(QStringLiteral("name")).toStdString();
    p.computeSlices = in.integer(QStringLiteral("compute_slices"), 1, computeSlices);
    p.memorySlices = in.integer(QStringLiteral("memory_slices"), 1, memorySlices);
    p.memoryGB = in.number(QStringLiteral("memory_gb"));
    if (!(p.memoryGB > 0))
        in.failField(QStringLiteral("memory_gb"), QStringLiteral("must be positive, got %1").arg(p.memoryGB));
    const QJsonArray starts = in.array(QStringLiteral("starts"));
    if (starts.isEmpty())
        in.failField(QStringLiteral("starts"), QStringLiteral("is empty"));
    for (qsizetype i = 0; i < starts.size(); ++i) {
        const QString field = QStringLiteral("starts[%1]").arg(i);
        const int start = in.wholeNumber(field, starts.at(i), 0, memorySlices - 1);
        if (start + p.memorySlices > memorySlices)
            in.failField(field, QStringLiteral("start %1 puts %2 memory slices past the GPU's %3")
                                    .arg(start).arg(p.memorySlices).arg(memorySlices));
        if (std::find(p.starts.begin(), p.starts.end(), start) != p.starts.end())
            in.failField(field, QStringLiteral("start %1 is listed twice").arg(start));
        p.starts.push_back(start);
    }
    p.maxInstances = in.integer(QStringLiteral("max_instances"), 1, memorySlices);
    p.mediaExtensions = in.boolean(QStringLiteral("media_extensions"));
    return p;
}

engine::MigGpuProfiles readGpu(const FieldReader &in, const QString &source, qsizetype index)
{
    in.checkKeys(kGpuKeys);
    engine::MigGpuProfiles gpu;
    gpu.gpuId = in.string(QStringLiteral("gpu")).toStdString();
    gpu.computeSlices = in.integer(QStringLiteral("compute_slices"), 1, 16);
    gpu.memorySlices = in.integer(QStringLiteral("memory_slices"), 1, 16);
    gpu.source = in.string(QStringLiteral("source")).toStdString();
    const QJsonArray profiles = in.array(QStringLiteral("profiles"));
    if (profiles.isEmpty())
        in.failField(QStringLiteral("profiles"), QStringLiteral("is empty"));
    QSet<QString> names;
    for (qsizetype i = 0; i < profiles.size(); ++i) {
        QString where = QStringLiteral("%1: mig_profiles[%2] (gpu %3): profiles[%4]")
                            .arg(source).arg(index).arg(quoted(QString::fromStdString(gpu.gpuId))).arg(i);
        if (!profiles.at(i).isObject())
            throw StoreError(where + QStringLiteral(": expected an object, got ") + jsonTypeName(profiles.at(i)));
        const QJsonObject object = profiles.at(i).toObject();
        if (object.value(QStringLiteral("name")).isString())
            where += QStringLiteral(" (") + quoted(object.value(QStringLiteral("name")).toString()) + QLatin1Char(')');
        const FieldReader profileIn(where, object);
        engine::MigProfile p = readProfile(profileIn, gpu.memorySlices, gpu.computeSlices);
        if (names.contains(QString::fromStdString(p.name)))
            profileIn.failField(QStringLiteral("name"), QStringLiteral("profile listed twice"));
        names.insert(QString::fromStdString(p.name));
        gpu.profiles.push_back(std::move(p));
    }
    return gpu;
}

std::vector<engine::MigGpuProfiles> loadShipped()
{
    static const bool initialised = (initMigProfileResources(), true);
    Q_UNUSED(initialised);
    QFile file(kShippedMigProfiles);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the shipped MIG profiles").arg(kShippedMigProfiles));
    return parseMigProfiles(file.readAll(), QStringLiteral("mig_profiles.json"));
}

} // namespace

std::vector<engine::MigGpuProfiles> parseMigProfiles(const QByteArray &json, const QString &source)
{
    const QJsonDocument document = parseJsonDocument(json, source);
    if (!document.isObject())
        throw StoreError(QStringLiteral("%1: expected an object {\"mig_profiles\": [...]}").arg(source));
    const QJsonObject root = document.object();
    const FieldReader rootIn(source, root);
    rootIn.checkKeys({kTopKey});
    const QJsonArray entries = rootIn.array(kTopKey);
    std::vector<engine::MigGpuProfiles> gpus;
    QSet<QString> ids;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        QString where = QStringLiteral("%1: mig_profiles[%2]").arg(source).arg(i);
        if (!entries.at(i).isObject())
            throw StoreError(where + QStringLiteral(": expected an object, got ") + jsonTypeName(entries.at(i)));
        const QJsonObject object = entries.at(i).toObject();
        if (object.value(QStringLiteral("gpu")).isString())
            where += QStringLiteral(" (gpu ") + quoted(object.value(QStringLiteral("gpu")).toString()) + QLatin1Char(')');
        const FieldReader in(where, object);
        engine::MigGpuProfiles gpu = readGpu(in, source, i);
        const QString id = QString::fromStdString(gpu.gpuId);
        if (ids.contains(id))
            in.failField(QStringLiteral("gpu"), QStringLiteral("%1 has a table already").arg(quoted(id)));
        ids.insert(id);
        if (const auto problems = engine::checkProfiles(gpu); !problems.empty())
            in.fail(QString::fromStdString(problems.front()));
        gpus.push_back(std::move(gpu));
    }
    return gpus;
}

const std::vector<engine::MigGpuProfiles> &shippedMigProfiles()
{
    static const std::vector<engine::MigGpuProfiles> shipped = loadShipped();
    return shipped;
}

const engine::MigGpuProfiles *shippedMigProfiles(const QString &gpuId)
{
    const std::string id = gpuId.toStdString();
    for (const engine::MigGpuProfiles &gpu : shippedMigProfiles()) {
        if (gpu.gpuId == id)
            return &gpu;
    }
    return nullptr;
}

} // namespace headroom::store
