#include "common/storetestsupport.h"
#include "common/workloadsamples.h"

#include "store/inference/workloadjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// The smallest valid workload: the required keys only.
QJsonObject requiredOnly()
{
    return QJsonObject{
        {QStringLiteral("name"), QStringLiteral("minimal")},
        {QStringLiteral("model"), QStringLiteral("llama-3.1-8b")},
        {QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
        {QStringLiteral("daily_active_users"), 1000},
        {QStringLiteral("requests_per_user_per_day"), 5},
        {QStringLiteral("prompt_p50"), 800},
        {QStringLiteral("prompt_p95"), 3000},
        {QStringLiteral("output_p50"), 200},
        {QStringLiteral("output_p95"), 600},
    };
}

std::string errorOf(const QJsonObject &object)
{
    return storeErrorOf([&] { workloadFromJson(object, QStringLiteral("plan.json")); });
}

QJsonObject with(QJsonObject object, const QString &key, const QJsonValue &value)
{
    object.insert(key, value);
    return object;
}

QJsonObject without(QJsonObject object, const QString &key)
{
    object.remove(key);
    return object;
}

} // namespace

TEST_CASE("workload JSON round trip keeps every field, with and without measured values")
{
    const engine::WorkloadProfile full = sampleWorkload();
    const QJsonObject json = workloadToJson(full);
    CHECK(json.value(QStringLiteral("model")).toString() == QLatin1String("llama-3.1-70b"));
    CHECK(json.value(QStringLiteral("weights")).toString() == QLatin1String("int4"));
    CHECK(json.value(QStringLiteral("kv_dtype")).toString() == QLatin1String("fp8"));
    CHECK(json.value(QStringLiteral("class")).toString() == QLatin1String("internal"));
    CHECK(json.value(QStringLiteral("isolation")).toString() == QLatin1String("regulated"));
    CHECK(json.value(QStringLiteral("diurnal")).toArray().size() == 24);
    CHECK(json.value(QStringLiteral("measured_max_streams")).toInteger() == 96);
    CHECK(firstDifference(workloadFromJson(json, QStringLiteral("t")), full).empty());

    // Through text as well: doubles must survive formatting.
    const QByteArray text = workloadJsonText(full);
    CHECK(firstDifference(parseWorkload(text, QStringLiteral("t")), full).empty());
    const QByteArray compact = QJsonDocument(json).toJson(QJsonDocument::Compact);
    CHECK(firstDifference(parseWorkload(compact, QStringLiteral("t")), full).empty());

    engine::WorkloadProfile bare = full;
    bare.measuredGoodputTokensPerS.reset();
    bare.goodputSource.clear();
    bare.measuredMaxStreams.reset();
    const QJsonObject bareJson = workloadToJson(bare);
    CHECK_FALSE(bareJson.contains(QStringLiteral("measured_goodput_tokens_per_s")));
    CHECK_FALSE(bareJson.contains(QStringLiteral("measured_max_streams")));
    CHECK(firstDifference(workloadFromJson(bareJson, QStringLiteral("t")), bare).empty());
    CHECK_FALSE(workloadJsonText(bare).contains("measured"));
}

TEST_CASE("optional workload keys take their documented defaults")
{
    const engine::WorkloadProfile workload =
        workloadFromJson(requiredOnly(), QStringLiteral("plan.json"));
    CHECK(workload.name == "minimal");
    CHECK(workload.tenant.empty());
    CHECK(workload.modelId == "llama-3.1-8b");
    CHECK(workload.gpuId == "h100-sxm");
    CHECK(workload.weights == engine::WeightPrecision::Bf16);
    CHECK(workload.kv == engine::KvPrecision::Bf16);
    CHECK(workload.workloadClass == engine::WorkloadClass::FlagshipInteractive);
    CHECK(workload.dailyActiveUsers == 1000);
    CHECK(workload.requestsPerUserPerDay == 5);
    CHECK(workload.peakSessionsPerUser == 0.1);
    CHECK(workload.diurnal == engine::diurnalShape(engine::DiurnalPreset::Flat));
    CHECK(workload.promptTokens.p50 == 800);
    CHECK(workload.promptTokens.p95 == 3000);
    CHECK(workload.outputTokens.p50 == 200);
    CHECK(workload.outputTokens.p95 == 600);
    CHECK(workload.prefixHitRate == 0);
    CHECK(workload.sharedPrefixTokens == 0);
    CHECK(workload.ttftP95Ms == 2000);
    CHECK(workload.itlP95Ms == 50);
    CHECK(workload.trafficVariance == 1.5);
    CHECK_FALSE(workload.measuredGoodputTokensPerS);
    CHECK_FALSE(workload.measuredMaxStreams);
    CHECK(workload.isolation == engine::Isolation::None);
    CHECK(workload.tp == 1);

    // null stands for an absent optional value.
    const engine::WorkloadProfile nulls = workloadFromJson(
        with(requiredOnly(), QStringLiteral("measured_goodput_tokens_per_s"), QJsonValue()),
        QStringLiteral("plan.json"));
    CHECK_FALSE(nulls.measuredGoodputTokensPerS);
}

TEST_CASE("diurnal presets by name, and a preset curve is written back as its name")
{
    using engine::DiurnalPreset;
    for (const auto &[name, preset] : {std::pair{"business_hours", DiurnalPreset::BusinessHours},
                                       std::pair{"evening_peak", DiurnalPreset::EveningPeak},
                                       std::pair{"flat", DiurnalPreset::Flat}}) {
        INFO(name);
        const engine::WorkloadProfile workload = workloadFromJson(
            with(requiredOnly(), QStringLiteral("diurnal"), QString::fromLatin1(name)),
            QStringLiteral("plan.json"));
        CHECK(workload.diurnal == engine::diurnalShape(preset));
        CHECK(workloadToJson(workload).value(QStringLiteral("diurnal")).toString()
              == QLatin1String(name));
    }
}

TEST_CASE("workload JSON errors name the source and the field")
{
    CHECK_THAT(errorOf(with(requiredOnly(), QStringLiteral("tpp"), 2)),
               StartsWith("plan.json (workload \"minimal\"): unknown field \"tpp\" (fields are: "
                          "name, tenant, model, "));
    CHECK(errorOf(without(requiredOnly(), QStringLiteral("prompt_p95")))
          == "plan.json (workload \"minimal\"): field \"prompt_p95\": missing (required)");
    CHECK(errorOf(without(requiredOnly(), QStringLiteral("name")))
          == "plan.json: field \"name\": missing (required)");
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("daily_active_users"),
                       QStringLiteral("many")))
          == "plan.json (workload \"minimal\"): field \"daily_active_users\": expected a number, "
             "got a string");
    CHECK_THAT(errorOf(with(requiredOnly(), QStringLiteral("goodput_source"), QStringLiteral("simulated"))),
               Contains("field \"goodput_source\": goodput_source describes measured_goodput_tokens_per_s, "
                        "which is missing"));
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("tp"), 1.5))
          == "plan.json (workload \"minimal\"): field \"tp\": expected a whole number, got 1.5");
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("weights"), QStringLiteral("fp4")))
          == "plan.json (workload \"minimal\"): field \"weights\": expected one of \"bf16\", "
             "\"fp16\", \"fp8\", \"int8\", \"int4\", got \"fp4\"");
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("class"), QStringLiteral("chat")))
          == "plan.json (workload \"minimal\"): field \"class\": expected one of \"flagship\", "
             "\"internal\", \"batch\", \"embedding\", got \"chat\"");
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("diurnal"), QStringLiteral("weekends")))
          == "plan.json (workload \"minimal\"): field \"diurnal\": unknown preset \"weekends\" "
             "(presets are \"business_hours\", \"evening_peak\", \"flat\", or give an array of "
             "24 hourly numbers)");
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("diurnal"), QJsonArray{1, 2, 3}))
          == "plan.json (workload \"minimal\"): field \"diurnal\": expected 24 hourly numbers, "
             "got 3");
    QJsonArray hours;
    for (int hour = 0; hour < 24; ++hour)
        hours.append(hour == 5 ? QJsonValue(QStringLiteral("x")) : QJsonValue(1));
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("diurnal"), hours))
          == "plan.json (workload \"minimal\"): field \"diurnal\": hour 5: expected a number, "
             "got a string");
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("prefix_hit_rate"), 1.5))
          == "plan.json (workload \"minimal\"): field \"prefix_hit_rate\": prefix_hit_rate "
             "must be between 0 and 1 (got 1.5)");
    CHECK(errorOf(with(requiredOnly(), QStringLiteral("prompt_p95"), 500))
          == "plan.json (workload \"minimal\"): field \"prompt_p95\": prompt_p95 (500) must be "
             "at least prompt_p50 (800)");
}

TEST_CASE("workload files: malformed JSON, a non-object, a missing file")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString broken = dir.filePath(QStringLiteral("broken.json"));
    writeBytes(broken, "{\n  \"name\": \"x\",\n  \"model\" \"y\"\n}\n");
    CHECK_THAT(storeErrorOf([&] { readWorkloadFile(broken); }),
               StartsWith((broken + QStringLiteral(": line 3, column ")).toStdString()));
    CHECK(storeErrorOf([&] { parseWorkload("[1, 2]", QStringLiteral("list.json")); })
          == "list.json: the top level must be one workload object");
    const QString missing = dir.filePath(QStringLiteral("nowhere.json"));
    CHECK_THAT(storeErrorOf([&] { readWorkloadFile(missing); }),
               StartsWith(("Cannot read workload file \"" + missing + "\": ").toStdString()));

    const QString written = dir.filePath(QStringLiteral("written.json"));
    writeBytes(written, workloadJsonText(sampleWorkload()));
    CHECK(firstDifference(readWorkloadFile(written), sampleWorkload()).empty());
}

TEST_CASE("the shipped sample workload parses and is written back byte for byte")
{
    const QString path = sourceFile(QStringLiteral("data/samples/chatbot-workload.json"));
    const engine::WorkloadProfile workload = readWorkloadFile(path);
    CHECK(workload.name == "chatbot");
    CHECK(workload.modelId == "llama-3.1-70b");
    CHECK(workload.gpuId == "h100-sxm");
    CHECK(workload.weights == engine::WeightPrecision::Fp8);
    CHECK(workload.kv == engine::KvPrecision::Fp8);
    CHECK(workload.dailyActiveUsers == 50000);
    CHECK(workload.diurnal == engine::diurnalShape(engine::DiurnalPreset::EveningPeak));
    CHECK(workload.promptTokens.p50 == 1020);
    CHECK(workload.promptTokens.p95 == 4083);
    CHECK(workload.prefixHitRate == 0.2);
    CHECK(workload.tp == 2);
    CHECK_FALSE(workload.measuredGoodputTokensPerS);
    CHECK(workloadJsonText(workload) == readBytes(path));
}
