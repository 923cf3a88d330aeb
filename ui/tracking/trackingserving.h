#pragma once

#include "report/reportdeck.h"

#include "engine/common/money.h"
#include "engine/tracking/serving_metrics.h"
#include "engine/tracking/telemetry_anomalies.h"

#include <QString>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The serving half of tracking (DESIGN §3.7c) as the page and the deck show it: rightsizing of
// each deployment and the benchmark history of the workspace's optimizations, read from the
// serving metrics imported into the workspace.
struct ServingSettings {
    QString gpuId;                 // the rate: lowest on-demand rate of this GPU in force today; empty: none
    int trailingDays = 7;          // rightsizing reads the last N days; 0 = every day held
    int windowDays = 7;            // benchmark windows on each side of an optimization
    int ttftSloMs = 0;             // TTFT P95 objective for rightsizing, milliseconds; 0 = none (the queue alone)
};

struct ServingAnalysis {
    bool hasMetrics = false;
    std::optional<engine::Money> rate;
    QString rateSource;            // "AWS us-east-1 p5.48xlarge, from 2025-06-01"
    double plannedHeadroom = 0.0;  // the workspace's serving assumptions
    std::optional<engine::LatencySlo> slo;
    std::vector<engine::RightsizingResult> rightsizing;
    std::vector<engine::ReplicaSummary> replicas;
    std::vector<engine::BenchmarkResult> benchmarks;
    std::vector<engine::DailyGoodput> goodput;   // every day held, every deployment
    int windowDays = 7;
    int trailingDays = 7;
    // Anomalies in the fleet's daily GPU utilization and GPU-hours (every day held); none
    // with the reason in anomalyNote when the metrics hold too few whole days.
    std::optional<engine::TelemetryAnomalyReport> anomalies;
    QString anomalyNote;
};

ServingAnalysis analyseServing(const store::Workspace &workspace, const ServingSettings &settings);

// The tables as shown on the page and printed in the deck.
DeckTable rightsizingTable(const ServingAnalysis &analysis);
// `forSlide`: the deck's narrower form (see its definition).
DeckTable replicasTable(const ServingAnalysis &analysis, bool forSlide = false);
DeckTable benchmarkTable(const ServingAnalysis &analysis);
// One row per telemetry anomaly: series, kind, day, utilization and GPU-hours with their
// forecasts, the size in GPU-hours and, with a rate, in money.
DeckTable telemetryAnomalyTable(const ServingAnalysis &analysis);
// How the daily series are built and searched, and what was found; or why nothing was searched.
QString telemetryAnomalyExplanation(const ServingAnalysis &analysis);
// The rightsizing rule and each deployment's reasoning, in paragraphs.
QString rightsizingExplanation(const ServingAnalysis &analysis);

// A table as CSV text (RFC 4180, a header row).
QByteArray deckTableCsv(const DeckTable &table);

// Appends the rightsizing, utilization anomaly and benchmark history pages to a tracking deck
// when the workspace holds serving metrics (rightsizing; anomalies once they cover enough
// whole days) and optimizations (benchmark history).
void appendServingPages(Deck &deck, const store::Workspace &workspace, const ServingSettings &settings);

} // namespace headroom::ui
