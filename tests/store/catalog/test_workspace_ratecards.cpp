#include "common/storetestsupport.h"

#include "store/cost/costcsv.h"
#include "store/common/workspace.h"

#include <QFile>
#include <QTemporaryDir>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;
using engine::Decimal;

namespace {

Decimal dec(const char *text)
{
    const auto value = Decimal::parse(text);
    REQUIRE(value.has_value());
    return *value;
}

// Every field set, none at its default; a slash and a comma in names that form the key.
engine::RateCard sampleCard(const std::string &effectiveDate = "2024-02-29")
{
    engine::RateCard card;
    card.provider = "Test Cloud, Inc.";
    card.region = "eu/west-9";
    card.gpuId = "test-gpu";
    card.instanceType = "tc.8xlarge";
    card.currency = "EUR";
    card.effectiveDate = effectiveDate;
    card.onDemand = dec("10.9790625");
    card.reserved1y = dec("6.123456789");
    card.reserved1yUpfront = dec("0.25");
    card.reserved3y = dec("4.5");
    card.reserved3yUpfront = dec("0.75");
    card.spot = dec("3.000000001");
    card.spotInterruptionRate = dec("0.125");
    card.reservationLeadWeeks = 7;
    card.committedAreExamples = false;
    card.source = "price list \"2024\", négocié";
    return card;
}

void checkSameCard(const engine::RateCard &actual, const engine::RateCard &expected)
{
    CHECK(actual.provider == expected.provider);
    CHECK(actual.region == expected.region);
    CHECK(actual.gpuId == expected.gpuId);
    CHECK(actual.instanceType == expected.instanceType);
    CHECK(actual.currency == expected.currency);
    CHECK(actual.effectiveDate == expected.effectiveDate);
    CHECK(actual.onDemand.toString() == expected.onDemand.toString());
    CHECK(actual.reserved1y.toString() == expected.reserved1y.toString());
    CHECK(actual.reserved1yUpfront.toString() == expected.reserved1yUpfront.toString());
    CHECK(actual.reserved3y.toString() == expected.reserved3y.toString());
    CHECK(actual.reserved3yUpfront.toString() == expected.reserved3yUpfront.toString());
    CHECK(actual.spot.toString() == expected.spot.toString());
    CHECK(actual.spotInterruptionRate.toString() == expected.spotInterruptionRate.toString());
    CHECK(actual.reservationLeadWeeks == expected.reservationLeadWeeks);
    CHECK(actual.committedAreExamples == expected.committedAreExamples);
    CHECK(actual.source == expected.source);
}

std::vector<engine::RateCard> shippedCards()
{
    return parseRateCardsCsv(readBytes(sourceFile(QStringLiteral("data/ratecards.csv"))),
                             QStringLiteral("ratecards.csv"));
}

QString key(const engine::RateCard &card)
{
    return QString::fromStdString(card.key());
}

// Schema 1 as released: the catalog tables and workspace_info, version 1.
void writeVersion1Workspace(const QString &path)
{
    RawDatabase raw(path);
    raw.exec(QStringLiteral(
        "CREATE TABLE gpu (id TEXT PRIMARY KEY, name TEXT NOT NULL, vendor TEXT NOT NULL, "
        "memory_bytes BIGINT NOT NULL, memory_nominal_gb DOUBLE PRECISION NOT NULL, "
        "hbm_bandwidth_gbps DOUBLE PRECISION NOT NULL, bf16_tflops DOUBLE PRECISION NOT NULL, "
        "fp8_tflops DOUBLE PRECISION NOT NULL, nvlink_gbps DOUBLE PRECISION NOT NULL, "
        "pcie_gbps DOUBLE PRECISION NOT NULL, tdp_w DOUBLE PRECISION NOT NULL, "
        "gpus_per_node INTEGER NOT NULL, source TEXT NOT NULL)"));
    raw.exec(QStringLiteral(
        "CREATE TABLE model (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
        "params_total DOUBLE PRECISION NOT NULL, params_active DOUBLE PRECISION NOT NULL, "
        "layers INTEGER NOT NULL, hidden_size INTEGER NOT NULL, attention_heads INTEGER NOT NULL, "
        "kv_heads INTEGER NOT NULL, head_dim INTEGER NOT NULL, attention TEXT NOT NULL CHECK "
        "(attention IN ('mha', 'gqa', 'mqa', 'mla')), kv_lora_rank INTEGER NOT NULL, "
        "qk_rope_head_dim INTEGER NOT NULL, sliding_window INTEGER NOT NULL, "
        "sliding_layers INTEGER NOT NULL, max_context BIGINT NOT NULL, source TEXT NOT NULL)"));
    raw.exec(QStringLiteral(
        "CREATE TABLE workspace_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)"));
    raw.exec(QStringLiteral(
        "INSERT INTO gpu VALUES ('old-gpu', 'Old GPU', 'Oldvendor', 42949672960, 40, 1555, "
        "312, 0, 600, 32, 400, 8, 'kept from schema 1')"));
    raw.exec(QStringLiteral(
        "INSERT INTO model VALUES ('old-model', 'Old Model', 8030261248, 8030261248, 32, 4096, "
        "32, 8, 128, 'gqa', 0, 0, 0, 0, 131072, 'kept from schema 1')"));
    raw.exec(QStringLiteral(
        "INSERT INTO workspace_info VALUES ('created_at', '2025-01-02T03:04:05Z')"));
    raw.exec(QStringLiteral("PRAGMA user_version = 1"));
}

} // namespace

TEST_CASE("opening a schema 1 workspace migrates it to the current schema, keeps its "
          "catalogs and adds the shipped rate cards", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("v1.headroom"));
    const QString path = location.path();
    writeVersion1Workspace(path);

    {
        Workspace workspace(path);
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        const auto gpus = workspace.gpus();
        REQUIRE(gpus.size() == 1);
        CHECK(gpus[0].id == "old-gpu");
        CHECK(gpus[0].memoryBytes == 42949672960);
        CHECK(gpus[0].source == "kept from schema 1");
        const auto models = workspace.models();
        REQUIRE(models.size() == 1);
        CHECK(models[0].id == "old-model");
        CHECK(models[0].maxContext == 131072);

        const auto shipped = shippedCards();
        const auto cards = workspace.rateCards();
        REQUIRE(cards.size() == shipped.size());
        for (const auto &expected : shipped) {
            const auto stored = workspace.rateCard(key(expected));
            REQUIRE(stored.has_value());
            checkSameCard(*stored, expected);
        }
        CHECK(workspace.demandSeriesNames().isEmpty());
    }
    RawDatabase raw(path);
    CHECK(raw.schemaVersion() == Workspace::kSchemaVersion);
    CHECK(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = 'created_at'"))
              .toString()
          == QLatin1String("2025-01-02T03:04:05Z"));
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workspace_info")).toInt() == 1);
}

TEST_CASE("a migration step that fails is rolled back and leaves the file at schema 1", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("blocked.headroom"));
    const QString path = location.path();
    writeVersion1Workspace(path);
    {
        RawDatabase raw(path);
        raw.exec(QStringLiteral("CREATE TABLE demand_series (something_else INTEGER)"));
    }
    CHECK_THAT(storeErrorOf([&] { Workspace workspace(path); }),
               Contains("cannot create the rate card and demand tables"));
    RawDatabase raw(path);
    CHECK(raw.schemaVersion() == 1);
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE name = 'rate_card'"))
              .toInt()
          == 0);
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM gpu")).toInt() == 1);
}

TEST_CASE("a new workspace holds the shipped rate cards and names them in seeded_from", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("new.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    const auto shipped = shippedCards();
    CHECK(workspace.rateCards().size() == shipped.size());
    const auto gcp = workspace.rateCard(QStringLiteral("GCP/us-central1/h100-sxm@2025-01-01"));
    REQUIRE(gcp.has_value());
    CHECK(gcp->onDemand.toString() == "10.9790625");
    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("SELECT on_demand FROM rate_card WHERE provider = 'GCP'"))
              .toString()
          == QLatin1String("10.9790625"));
    CHECK(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = 'seeded_from'"))
              .toString()
              .endsWith(QStringLiteral("ratecards.csv (%1 rate cards)").arg(shipped.size())));
}

TEST_CASE("a rate card keeps every field exactly through the workspace file", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("cards.headroom"));
    const QString path = location.path();
    const engine::RateCard card = sampleCard();
    const size_t shipped = shippedCards().size();
    {
        Workspace workspace(path);
        int changes = 0;
        QObject::connect(&workspace, &Workspace::rateCardsChanged, &workspace, [&] { ++changes; });
        workspace.putRateCard(card);
        CHECK(changes == 1);
    }
    Workspace workspace(path);
    const auto stored =
        workspace.rateCard(QStringLiteral("Test Cloud, Inc./eu/west-9/test-gpu@2024-02-29"));
    REQUIRE(stored.has_value());
    checkSameCard(*stored, card);
    CHECK(workspace.rateCards().size() == shipped + 1);

    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("SELECT reserved_1y || '|' || spot || '|' || lead_weeks "
                                    "FROM rate_card WHERE currency = 'EUR'"))
              .toString()
          == QLatin1String("6.123456789|3.000000001|7"));
}

TEST_CASE("rate card history keeps every effective date of one provider, region and GPU", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("history.headroom"));
    Workspace workspace(location.path());
    const size_t shipped = workspace.rateCards().size();

    engine::RateCard later = sampleCard("2025-06-01");
    later.onDemand = dec("6.88");
    later.reserved1y = dec("4.2656");
    later.reserved3y = dec("3.096");
    later.spot = dec("2.46");
    int changes = 0;
    QObject::connect(&workspace, &Workspace::rateCardsChanged, &workspace, [&] { ++changes; });
    workspace.putRateCards({later, sampleCard("2024-02-29")});
    CHECK(changes == 1);

    const auto cards = workspace.rateCards();
    REQUIRE(cards.size() == shipped + 2);
    std::vector<engine::RateCard> history;
    for (const auto &card : cards) {
        if (card.historyKey() == "Test Cloud, Inc./eu/west-9/test-gpu")
            history.push_back(card);
    }
    REQUIRE(history.size() == 2);
    CHECK(history[0].effectiveDate == "2024-02-29");  // ordered by date
    CHECK(history[1].effectiveDate == "2025-06-01");
    CHECK(history[0].onDemand.toString() == "10.9790625");
    CHECK(history[1].onDemand.toString() == "6.88");

    const auto *inForce =
        engine::cardInForce(cards, "Test Cloud, Inc./eu/west-9/test-gpu", "2025-01-01");
    REQUIRE(inForce != nullptr);
    CHECK(inForce->effectiveDate == "2024-02-29");

    // Same key again: replaced, not added.
    later.onDemand = dec("7.5");
    workspace.putRateCard(later);
    CHECK(changes == 2);
    CHECK(workspace.rateCards().size() == shipped + 2);
    CHECK(workspace.rateCard(key(later))->onDemand.toString() == "7.5");

    // The shipped AWS H100 history: before and after the June 2025 cut.
    const auto before = workspace.rateCard(QStringLiteral("AWS/us-east-1/h100-sxm@2023-07-26"));
    const auto after = workspace.rateCard(QStringLiteral("AWS/us-east-1/h100-sxm@2025-06-01"));
    REQUIRE(before.has_value());
    REQUIRE(after.has_value());
    CHECK(before->onDemand.toString() == "12.29");
    CHECK(after->onDemand.toString() == "6.88");
}

TEST_CASE("an invalid rate card is refused naming the field, and nothing is written", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("invalid.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    const size_t before = workspace.rateCards().size();
    int changes = 0;
    QObject::connect(&workspace, &Workspace::rateCardsChanged, &workspace, [&] { ++changes; });

    engine::RateCard zeroRate = sampleCard();
    zeroRate.onDemand = Decimal();
    CHECK_THAT(storeErrorOf([&] { workspace.putRateCard(zeroRate); }),
               Contains("Rate card \"Test Cloud, Inc./eu/west-9/test-gpu@2024-02-29\"")
                   && Contains("field \"on_demand\""));

    engine::RateCard neverPays = sampleCard("2025-01-01");
    neverPays.reserved1y = dec("11");
    CHECK_THAT(storeErrorOf([&] { workspace.putRateCards({sampleCard(), neverPays}); }),
               Contains("field \"reserved_1y\"") && Contains("never pays"));

    engine::RateCard badDate = sampleCard();
    badDate.effectiveDate = "2025-02-30";
    CHECK_THAT(storeErrorOf([&] { workspace.putRateCard(badDate); }),
               Contains("field \"effective_date\""));

    engine::RateCard badShare = sampleCard();
    badShare.reserved3yUpfront = dec("1.5");
    CHECK_THAT(storeErrorOf([&] { workspace.putRateCard(badShare); }),
               Contains("field \"reserved_3y_upfront\""));

    CHECK_THAT(storeErrorOf([&] { workspace.putRateCards({sampleCard(), sampleCard()}); }),
               Contains("appears more than once"));

    CHECK(changes == 0);
    CHECK(workspace.rateCards().size() == before);
    CHECK_FALSE(workspace.rateCard(key(sampleCard())).has_value());
    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM rate_card WHERE currency = 'EUR'"))
              .toInt()
          == 0);
}

TEST_CASE("removing a rate card deletes that effective date only and signals once", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("remove.headroom"));
    Workspace workspace(location.path());
    const size_t shipped = workspace.rateCards().size();
    int changes = 0;
    QObject::connect(&workspace, &Workspace::rateCardsChanged, &workspace, [&] { ++changes; });

    CHECK(workspace.removeRateCard(QStringLiteral("AWS/us-east-1/h100-sxm@2023-07-26")));
    CHECK(changes == 1);
    CHECK(workspace.rateCards().size() == shipped - 1);
    CHECK_FALSE(
        workspace.rateCard(QStringLiteral("AWS/us-east-1/h100-sxm@2023-07-26")).has_value());
    CHECK(workspace.rateCard(QStringLiteral("AWS/us-east-1/h100-sxm@2025-06-01")).has_value());

    CHECK_FALSE(workspace.removeRateCard(QStringLiteral("AWS/us-east-1/h100-sxm@2023-07-26")));
    CHECK_FALSE(workspace.removeRateCard(QStringLiteral("AWS/us-east-1/h100-sxm")));
    CHECK(changes == 1);
    workspace.putRateCards({});
    CHECK(changes == 1);
}

TEST_CASE("older workspaces gain the shipped models' expert counts and vocabularies, and GPU calibrations", "[workspace][file]")
{
    for (int version : {10, 11, 12}) {
        INFO("schema " << version);
        WorkspaceLocation location(QStringLiteral("v%1.headroom").arg(version));
        { Workspace workspace(location.path()); }
        {
            RawDatabase raw(location.path());
            if (version < 11)
                dropStepCostFacts(raw);
            else if (version < 12)
                dropExpertCounts(raw);
            else
                dropGpuCalibrations(raw);
            raw.exec(QStringLiteral("PRAGMA user_version = %1").arg(version));
        }
        Workspace workspace(location.path());
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        const auto deepseek = workspace.model(QStringLiteral("deepseek-v3"));
        REQUIRE(deepseek.has_value());
        CHECK(deepseek->experts == 256);
        CHECK(deepseek->expertsPerToken == 8);
        CHECK(deepseek->vocabSize == 129280);
        const auto dense = workspace.model(QStringLiteral("llama-3.1-405b"));
        REQUIRE(dense.has_value());
        CHECK(dense->experts == 0);
        CHECK(dense->vocabSize == 128256);
        // Schema 13: GPUs keep their profiles and have no calibration until one is saved.
        const auto h100 = workspace.gpu(QStringLiteral("h100-sxm"));
        REQUIRE(h100.has_value());
        CHECK(h100->efficiency.has_value());
        CHECK(h100->calibrations.empty());
        // Schema 14: the shipped GPUs get the product names their DRA drivers publish.
        CHECK(h100->draProductName == "NVIDIA H100 80GB HBM3");
    }
}

TEST_CASE("a schema 13 workspace gains the shipped DRA product names, except on GPUs it changed", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("v13.headroom"));
    {
        Workspace workspace(location.path());
        engine::GpuSpec own = sampleGpu("own-gpu");
        workspace.putGpu(own);
    }
    {
        RawDatabase raw(location.path());
        dropDraProductNames(raw);
        // An entry under a shipped id that now describes other hardware keeps no shipped name.
        raw.exec(QStringLiteral("UPDATE gpu SET memory_bytes = 25769803776 WHERE id = 'l4'"));
        raw.exec(QStringLiteral("PRAGMA user_version = 13"));
    }
    Workspace workspace(location.path());
    CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
    CHECK(workspace.gpu(QStringLiteral("h100-sxm"))->draProductName == "NVIDIA H100 80GB HBM3");
    CHECK(workspace.gpu(QStringLiteral("a100-sxm-40gb"))->draProductName == "NVIDIA A100-SXM4-40GB");
    CHECK(workspace.gpu(QStringLiteral("mi300x"))->draProductName == "AMD_Instinct_MI300X_OAM");
    CHECK(workspace.gpu(QStringLiteral("l4"))->draProductName.empty());
    CHECK(workspace.gpu(QStringLiteral("own-gpu"))->draProductName.empty());
}

TEST_CASE("a schema 16 workspace gains the shipped FP4 peaks, except on GPUs it changed", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("v16.headroom"));
    {
        Workspace workspace(location.path());
        workspace.putGpu(sampleGpu("own-gpu"));
    }
    {
        RawDatabase raw(location.path());
        dropFp4Peaks(raw);
        // An entry under a shipped id that now describes other hardware keeps no shipped figure.
        raw.exec(QStringLiteral("UPDATE gpu SET memory_bytes = 206158430208 WHERE id = 'gb200'"));
        raw.exec(QStringLiteral("PRAGMA user_version = 16"));
    }
    Workspace workspace(location.path());
    CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
    CHECK(workspace.gpu(QStringLiteral("b200"))->fp4Tflops == 9000);
    CHECK(workspace.gpu(QStringLiteral("b300"))->fp4Tflops == 13500);
    CHECK(workspace.gpu(QStringLiteral("gb200"))->fp4Tflops == 0);
    CHECK(workspace.gpu(QStringLiteral("h100-sxm"))->fp4Tflops == 0);
    CHECK(workspace.gpu(QStringLiteral("own-gpu"))->fp4Tflops == 0);
    // The rest of the row is as it was.
    CHECK(workspace.gpu(QStringLiteral("b200"))->fp8Tflops == 4500);
}
