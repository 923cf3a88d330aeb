#pragma once

#include "common/chartexport.h"
#include "report/reportdeck.h"

#include "engine/tracking/chargeback.h"

#include <QString>

// The chargeback's table, charts and deck pages (DESIGN §3.7c), the same on the Tracking
// page's Chargeback section, in its exports and in the tracking deck.
namespace headroom::ui {

// What was charged back and how, for captions and the deck.
struct ChargebackRun {
    engine::ChargebackResult result;
    engine::ChargebackOptions options;
    engine::ChargebackBy by = engine::ChargebackBy::Tenant;
    QString claimsFile;              // file names, for the deck's sources
    QString focusFile;
    QString kueueConfig;             // engine::kueueQuotaConfig of the claims
};

// An amount to the cent with its digits grouped: "19,822.32", "−2,517.12".
QString chargebackMoney(const engine::Decimal &amount);

// The table by run.by as shown: key, slice-hours, claim-hours, cost, quota split, quota − cost,
// cost per 1M input, output and all tokens, then a total row that re-adds the money columns.
DeckTable chargebackTable(const ChargebackRun &run);

// Per key, the cost by slice-hours beside the same amounts split as a Kueue quota counts
// claims (bars, money), idle capacity last.
ChartFigure chargebackFigure(const ChargebackRun &run);

// Per key with tokens, cost per million tokens by UTC day (lines); without tokens, the
// allocated cost by day.
ChartFigure chargebackTrendFigure(const ChargebackRun &run);

// Pages for the tracking deck: the table, the comparison chart, the trend and the Kueue
// configuration, under a heading naming the files and the period.
void appendChargebackPages(Deck &deck, const ChargebackRun &run);

} // namespace headroom::ui
