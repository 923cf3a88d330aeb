#include "engine/common/calendar.h"
#include "engine/common/errors.h"
#include "engine/tracking/watch_findings.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;

namespace {

constexpr int64_t kDay = 86400;

CommitmentUsage commitment(const std::string &id, double trailing, bool underUsed)
{
    CommitmentUsage c;
    c.id = id;
    c.name = id == "ri-1" ? "H100 one-year" : "";
    c.currency = "USD";
    c.trailingUtilization = trailing;
    c.underUsed = underUsed;
    c.unusedCost = *Decimal::parse("432");
    return c;
}

CommitmentRecommendation renewal(const std::string &id, int64_t termEnd, int64_t days)
{
    CommitmentRecommendation r;
    r.id = id;
    r.currency = "USD";
    r.termEnd = termEnd;
    r.daysToRenewal = days;
    return r;
}

} // namespace

TEST_CASE("watch findings: an under-used commitment inside its renewal notice, outside it, and a used one", "[watch]")
{
    CommitmentReport report;
    report.commitments = {commitment("ri-1", 0.4, true), commitment("ri-2", 0.5, true), commitment("ri-3", 0.95, false)};
    const int64_t end = daysSinceEpoch(*parseIsoDate("2026-03-10")) * kDay;
    const std::vector<CommitmentRecommendation> renewals = {renewal("ri-1", end, 8), renewal("ri-2", end + 90 * kDay, 98),
                                                            renewal("ri-3", end, 8)};
    WatchInputs inputs;
    inputs.commitments = &report;
    inputs.renewals = &renewals;
    WatchOptions options;
    options.renewalNoticeDays = 14;
    const auto findings = watchFindings(inputs, options);
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].kind == "commitment_renewal");
    CHECK(findings[0].key == "commitment_renewal:ri-1:USD:2026-03-10");
    CHECK(findings[0].message
          == "Commitment H100 one-year (ri-1) is under-used (trailing utilization 40 %, 432.00 USD unused so far) and "
             "its term ends 2026-03-10, in 8 days.");
    CHECK(findings[1].kind == "commitment_underused");
    CHECK(findings[1].key == "commitment_underused:ri-2:USD");
    CHECK(findings[1].message.find("its term ends 2026-06-08, in 98 days") != std::string::npos);

    // The day the notice opens is inside it; a day later is not.
    options.renewalNoticeDays = 8;
    CHECK(watchFindings(inputs, options)[0].kind == "commitment_renewal");
    options.renewalNoticeDays = 7;
    CHECK(watchFindings(inputs, options)[0].kind == "commitment_underused");
    options.renewalNoticeDays = -1;
    CHECK_THROWS_AS(watchFindings(inputs, options), InputError);
}

TEST_CASE("watch findings: anomalies only on the recent days, rightsizing when the count should change", "[watch]")
{
    TelemetryAnomalyReport telemetry;
    for (int64_t d = 100; d < 130; ++d)
        telemetry.days.push_back(TelemetryDay{d, 24, 192, 192, 100});
    TelemetryAnomaly old;
    old.kind = AnomalyKind::Spike;
    old.day = old.endDay = 110;
    TelemetryAnomaly drop;
    drop.kind = AnomalyKind::LevelShift;
    drop.day = 121;
    drop.endDay = 123;  // confirmed inside the last 7 days (123 … 129)
    drop.utilization = 0.27;
    drop.expectedUtilization = 0.72;
    drop.sizeGpuHours = -86.3;
    telemetry.anomalies = {old, drop};

    RightsizingResult fewer;
    fewer.deployment = "chat";
    fewer.hours = 168;
    fewer.currentReplicas = 4;
    fewer.recommendedReplicas = 2;
    fewer.gpusPerReplica = 8;
    RightsizingResult same = fewer;
    same.deployment = "code";
    same.recommendedReplicas = 4;
    RightsizingResult unmeasured = fewer;
    unmeasured.deployment = "embed";
    unmeasured.hours = 0;
    const std::vector<RightsizingResult> rightsizing = {fewer, same, unmeasured};

    WatchInputs inputs;
    inputs.telemetry = &telemetry;
    inputs.rightsizing = &rightsizing;
    const auto findings = watchFindings(inputs);
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].kind == "utilization_level_shift");
    CHECK(findings[0].key == "utilization_level_shift:fleet:" + isoDate(dateFromDays(121)));
    CHECK(findings[0].message.find("27 % against 72 % expected, 86.3 GPU-hours a day idle") != std::string::npos);
    CHECK(findings[1].kind == "rightsizing");
    CHECK(findings[1].message == "Deployment chat: 2 replicas would hold the busy load where 4 run (16 GPUs to give back).");

    WatchOptions wider;
    wider.recentDays = 20;  // the spike on day 110 is inside the last 20 days (110 … 129)
    CHECK(watchFindings(inputs, wider).size() == 3);
    wider.recentDays = 0;
    CHECK_THROWS_AS(watchFindings(inputs, wider), InputError);
}

TEST_CASE("watch findings: a change is a key added or gone, not a message reworded", "[watch]")
{
    const std::vector<WatchFinding> now = {{"rightsizing", "chat", "rightsizing:chat:2:", "2 replicas"},
                                           {"commitment_underused", "ri 2", "commitment_underused:ri_2:USD", "x"}};
    const FindingsChange same = compareFindings({"commitment_underused:ri_2:USD", "rightsizing:chat:2:"}, now);
    CHECK_FALSE(same.changed());
    const FindingsChange moved = compareFindings({"rightsizing:chat:3:", "commitment_underused:ri_2:USD"}, now);
    REQUIRE(moved.added.size() == 1);
    CHECK(moved.added[0].subject == "chat");
    CHECK(moved.resolved == std::vector<std::string>{"rightsizing:chat:3:"});
    CHECK(compareFindings({}, now).added.size() == 2);
}
