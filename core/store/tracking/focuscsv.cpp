#include "focuscsv.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include "engine/common/calendar.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace headroom::store {

namespace {

using engine::ChargeCategory;
using engine::CommitmentStatus;
using engine::Decimal;
using engine::FocusCharge;
using engine::FocusCharges;
using engine::PricingCategory;

// The columns read, by their FOCUS names.
enum Column {
    ChargePeriodStart,
    ChargePeriodEnd,
    ChargeCategoryColumn,
    BilledCost,
    EffectiveCost,
    ListCost,
    BillingCurrency,
    PricingCategoryColumn,
    ResourceId,
    SkuId,
    RegionId,
    ServiceName,
    ServiceCategory,
    ConsumedQuantity,
    ConsumedUnit,
    CommitmentDiscountId,
    CommitmentDiscountName,
    CommitmentDiscountCategory,
    CommitmentDiscountType,
    CommitmentDiscountStatus,
    kColumnCount
};

const std::array<const char *, kColumnCount> kColumnNames = {
    "ChargePeriodStart", "ChargePeriodEnd", "ChargeCategory", "BilledCost", "EffectiveCost",
    "ListCost", "BillingCurrency", "PricingCategory", "ResourceId", "SkuId", "RegionId",
    "ServiceName", "ServiceCategory", "ConsumedQuantity", "ConsumedUnit", "CommitmentDiscountId",
    "CommitmentDiscountName", "CommitmentDiscountCategory", "CommitmentDiscountType",
    "CommitmentDiscountStatus"};

constexpr std::array<Column, 5> kMandatory = {ChargePeriodStart, ChargePeriodEnd, ChargeCategoryColumn,
                                              BilledCost, EffectiveCost};

constexpr int kShownWarnings = 10;

// Digits at text[pos, pos + count) as a number, or -1.
int digits(QStringView text, qsizetype pos, int count)
{
    if (pos + count > text.size())
        return -1;
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const char16_t c = text.at(pos + i).unicode();
        if (c < u'0' || c > u'9')
            return -1;
        value = value * 10 + (c - u'0');
    }
    return value;
}

class FocusReader {
public:
    FocusReader(const QString &source, const FocusOptions &options) : m_source(source), m_options(options)
    {
        m_columns.fill(-1);
    }

    void record(CsvRecord &record)
    {
        if (record.isBlank())
            return;
        if (!m_haveHeader) {
            readHeader(record);
            return;
        }
        if (record.fields.size() != m_fieldCount)
            failFieldCount(m_source, record.line, record.fields.size(), m_fieldCount);
        readRow(record);
    }

    FocusCharges finish()
    {
        if (!m_haveHeader)
            throw StoreError(QStringLiteral("%1: the file is empty; a FOCUS cost-and-usage CSV starts "
                                            "with a header naming its columns (ChargePeriodStart, "
                                            "ChargePeriodEnd, ChargeCategory, BilledCost, EffectiveCost, …)")
                                 .arg(m_source));
        checkOverlaps();
        if (m_hiddenWarnings > 0)
            m_result.warnings.push_back(QStringLiteral("%1: %2 more values read the same way")
                                            .arg(m_source)
                                            .arg(m_hiddenWarnings)
                                            .toStdString());
        return std::move(m_result);
    }

private:
    void readHeader(const CsvRecord &header)
    {
        m_haveHeader = true;
        m_fieldCount = header.fields.size();
        QHash<QString, int> seen;
        for (int i = 0; i < header.fields.size(); ++i) {
            const QString name = header.fields.at(i).trimmed().toLower();
            if (seen.contains(name) && !name.isEmpty())
                failField(header.line, header.fields.at(i),
                          QStringLiteral("the column appears twice (fields %1 and %2)").arg(seen.value(name) + 1).arg(i + 1));
            seen.insert(name, i);
        }
        for (int c = 0; c < kColumnCount; ++c)
            m_columns[c] = seen.value(QString::fromLatin1(kColumnNames[c]).toLower(), -1);
        if (m_columns[BillingCurrency] < 0)
            m_columns[BillingCurrency] = seen.value(QStringLiteral("billedcurrency"), -1);
        for (Column c : kMandatory)
            if (m_columns[c] < 0)
                failField(header.line, QString::fromLatin1(kColumnNames[c]),
                          QStringLiteral("missing column; a FOCUS cost-and-usage CSV must have "
                                         "ChargePeriodStart, ChargePeriodEnd, ChargeCategory, BilledCost "
                                         "and EffectiveCost (the header reads \"%1\")")
                              .arg(shownValue(header.fields.join(QLatin1Char(',')))));
        if (m_columns[BillingCurrency] < 0) {
            m_defaultCurrency = currencyIndex(header.line, m_options.defaultCurrency);
            m_result.warnings.push_back(QStringLiteral("%1: no BillingCurrency column; every amount is read as %2")
                                            .arg(m_source, m_options.defaultCurrency)
                                            .toStdString());
        }
    }

    // The field of `column` on the row: empty when the file has no such column or the field
    // holds "null".
    QString value(const CsvRecord &row, Column column) const
    {
        const int index = m_columns[column];
        if (index < 0)
            return QString();
        const QString &text = row.fields.at(index);
        if (text.size() == 4 && text.compare(QLatin1String("null"), Qt::CaseInsensitive) == 0)
            return QString();
        return text;
    }

    [[noreturn]] void failField(int line, const QString &field, const QString &message) const
    {
        failCsvField(m_source, line, field, message);
    }

    [[noreturn]] void failValue(const CsvRecord &row, Column column, const QString &message) const
    {
        failField(row.line, QString::fromLatin1(kColumnNames[column]), message);
    }

    void warn(const QString &message)
    {
        if (m_shownWarnings < kShownWarnings) {
            ++m_shownWarnings;
            m_result.warnings.push_back(message.toStdString());
        } else {
            ++m_hiddenWarnings;
        }
    }

    // Interns with a one-entry memory per column: most columns repeat the row before.
    uint32_t intern(const QString &text, Column column)
    {
        InternCache &cache = m_internCache[column];
        if (cache.valid && text == cache.text)
            return cache.index;
        const uint32_t index = intern(text);
        cache.text = text;
        cache.index = index;
        cache.valid = true;
        return index;
    }

    uint32_t intern(const QString &text)
    {
        if (text.isEmpty())
            return 0;
        const auto found = m_names.constFind(text);
        if (found != m_names.constEnd())
            return found.value();
        const auto index = uint32_t(m_result.names.size());
        m_result.names.push_back(text.toStdString());
        m_names.insert(text, index);
        return index;
    }

    uint32_t currencyIndex(int line, const QString &code)
    {
        const auto found = m_currencies.constFind(code);
        if (found != m_currencies.constEnd())
            return found.value();
        const bool iso = code.size() == 3
            && std::all_of(code.begin(), code.end(), [](QChar c) { return c >= QLatin1Char('A') && c <= QLatin1Char('Z'); });
        if (!iso)
            failField(line, QStringLiteral("BillingCurrency"),
                      QStringLiteral("\"%1\" is not a currency code; expected three capital letters "
                                     "(ISO 4217, e.g. USD)")
                          .arg(shownValue(code)));
        const auto index = uint32_t(m_result.currencies.size());
        m_result.currencies.push_back(code.toStdString());
        m_currencies.insert(code, index);
        return index;
    }

    // ISO 8601 date and time: yyyy-mm-ddThh:mm[:ss[.fff]] with Z, ±hh:mm or no zone (UTC).
    int64_t time(const CsvRecord &row, Column column)
    {
        const QString text = value(row, column);
        // Hourly exports repeat each period on every resource's row: the last text read in a
        // column is remembered with its value, unless reading it gave a warning (which every
        // row that has it must give).
        TimeCache &cache = column == ChargePeriodStart ? m_startCache : m_endCache;
        if (!text.isEmpty() && cache.valid && text == cache.text)
            return cache.seconds;
        const int warningsBefore = m_shownWarnings + m_hiddenWarnings;
        const int64_t seconds = parseTime(row, column, text);
        cache.text = text;
        cache.seconds = seconds;
        cache.valid = m_shownWarnings + m_hiddenWarnings == warningsBefore;
        return seconds;
    }

    int64_t parseTime(const CsvRecord &row, Column column, const QString &text)
    {
        if (text.isEmpty())
            failValue(row, column, QStringLiteral("empty; every charge needs its period in ISO 8601 UTC, "
                                                  "e.g. 2026-01-01T00:00:00Z"));
        const QStringView t(text);
        const auto bad = [&] {
            failValue(row, column, QStringLiteral("\"%1\" is not an ISO 8601 time such as 2026-01-01T00:00:00Z")
                                       .arg(shownValue(text)));
        };
        const int year = digits(t, 0, 4), month = digits(t, 5, 2), day = digits(t, 8, 2);
        if (year < 0 || month < 0 || day < 0 || t.size() < 16 || t.at(4) != QLatin1Char('-')
            || t.at(7) != QLatin1Char('-') || (t.at(10) != QLatin1Char('T') && t.at(10) != QLatin1Char(' '))
            || t.at(13) != QLatin1Char(':'))
            bad();
        const int hour = digits(t, 11, 2), minute = digits(t, 14, 2);
        qsizetype pos = 16;
        int second = 0;
        if (pos < t.size() && t.at(pos) == QLatin1Char(':')) {
            second = digits(t, pos + 1, 2);
            pos += 3;
            if (pos < t.size() && t.at(pos) == QLatin1Char('.')) {
                ++pos;
                const qsizetype first = pos;
                while (pos < t.size() && t.at(pos).isDigit())
                    ++pos;
                if (pos == first)
                    bad();
            }
        }
        int64_t offset = 0;
        if (pos < t.size() && (t.at(pos) == QLatin1Char('Z') || t.at(pos) == QLatin1Char('z'))) {
            ++pos;
        } else if (pos < t.size() && (t.at(pos) == QLatin1Char('+') || t.at(pos) == QLatin1Char('-'))) {
            const int oh = digits(t, pos + 1, 2), om = digits(t, pos + 4, 2);
            if (oh < 0 || om < 0 || oh > 23 || om > 59 || pos + 6 > t.size() || t.at(pos + 3) != QLatin1Char(':'))
                bad();
            offset = (t.at(pos) == QLatin1Char('+') ? 1 : -1) * (int64_t(oh) * 3600 + om * 60);
            pos += 6;
        }
        if (pos != t.size() || hour < 0 || minute < 0 || second < 0 || minute > 59 || second > 59)
            bad();
        const engine::CivilDate date{std::chrono::year(year), std::chrono::month(unsigned(month)),
                                     std::chrono::day(unsigned(day))};
        if (!date.ok() || year < 1970 || year > 9999)
            failValue(row, column, QStringLiteral("\"%1\" is not a real date between 1970 and 9999")
                                       .arg(shownValue(text)));
        // Some published examples carry an hour past 23 (2023-02-01T30:00:00Z); it is read as
        // that many hours after midnight and said so. Past 47 is refused.
        if (hour > 47)
            bad();
        const int64_t seconds = engine::daysSinceEpoch(date) * 86400 + int64_t(hour) * 3600 + minute * 60 + second - offset;
        if (hour > 23)
            warn(QStringLiteral("%1: line %2: field \"%3\": hour %4 is past 23; read as %5")
                     .arg(m_source)
                     .arg(row.line)
                     .arg(QLatin1String(kColumnNames[column]))
                     .arg(hour)
                     .arg(QString::fromStdString(isoTime(seconds))));
        return seconds;
    }

    static std::string isoTime(int64_t seconds)
    {
        const int64_t days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
        const int64_t rest = seconds - days * 86400;
        char clock[16];
        std::snprintf(clock, sizeof clock, "T%02d:%02d:%02dZ", int(rest / 3600), int(rest / 60 % 60), int(rest % 60));
        return engine::isoDate(engine::dateFromDays(days)) + clock;
    }

    // A plain decimal; more than 9 fractional digits are accepted only when the extra ones are zeros.
    std::optional<Decimal> decimal(const CsvRecord &row, Column column, bool required)
    {
        const QString text = value(row, column);
        if (text.isEmpty()) {
            if (required)
                failValue(row, column, QStringLiteral("empty; every charge states its %1 (0 when there is none)")
                                           .arg(QLatin1String(kColumnNames[column])));
            return std::nullopt;
        }
        // Plain decimals are short ASCII: read into a stack buffer (anything else, or longer
        // than the buffer, is not a plain decimal Decimal::parse accepts anyway).
        char ascii[64];
        qsizetype size = 0;
        bool plain = text.size() <= qsizetype(sizeof ascii);
        qsizetype dot = -1;
        for (qsizetype i = 0; plain && i < text.size(); ++i) {
            const char16_t c = text.at(i).unicode();
            if (c >= 0x80) {
                plain = false;
                break;
            }
            if (c == u'.' && dot < 0)
                dot = i;
            ascii[size++] = char(c);
        }
        if (plain && dot >= 0)
            while (size > dot + 1 + Decimal::kScale && ascii[size - 1] == '0')
                --size;
        const auto parsed = plain ? Decimal::parse(std::string_view(ascii, size_t(size))) : std::nullopt;
        if (!parsed)
            failValue(row, column, QStringLiteral("\"%1\" is not a plain decimal amount (e.g. 24.20 or -3.5, "
                                                  "at most 9 decimal places, no exponent)")
                                       .arg(shownValue(text)));
        return parsed;
    }

    void readRow(const CsvRecord &row)
    {
        FocusCharge charge;
        charge.line = uint32_t(row.line);
        charge.periodStart = time(row, ChargePeriodStart);
        charge.periodEnd = time(row, ChargePeriodEnd);
        if (charge.periodEnd <= charge.periodStart)
            failValue(row, ChargePeriodEnd, QStringLiteral("\"%1\" is not after ChargePeriodStart \"%2\"")
                                                .arg(shownValue(value(row, ChargePeriodEnd)),
                                                     shownValue(value(row, ChargePeriodStart))));
        const QString category = value(row, ChargeCategoryColumn);
        if (category.compare(QLatin1String("Usage"), Qt::CaseInsensitive) == 0)
            charge.category = ChargeCategory::Usage;
        else if (category.compare(QLatin1String("Purchase"), Qt::CaseInsensitive) == 0)
            charge.category = ChargeCategory::Purchase;
        else if (category.compare(QLatin1String("Tax"), Qt::CaseInsensitive) == 0)
            charge.category = ChargeCategory::Tax;
        else if (category.compare(QLatin1String("Credit"), Qt::CaseInsensitive) == 0)
            charge.category = ChargeCategory::Credit;
        else if (category.compare(QLatin1String("Adjustment"), Qt::CaseInsensitive) == 0)
            charge.category = ChargeCategory::Adjustment;
        else
            failValue(row, ChargeCategoryColumn, QStringLiteral("\"%1\" is not a FOCUS charge category; expected "
                                                                "Usage, Purchase, Tax, Credit or Adjustment")
                                                     .arg(shownValue(category)));
        charge.billedCost = *decimal(row, BilledCost, true);
        charge.effectiveCost = *decimal(row, EffectiveCost, true);
        charge.listCost = decimal(row, ListCost, false).value_or(Decimal());
        charge.consumedQuantity = decimal(row, ConsumedQuantity, false).value_or(Decimal());
        if (m_columns[BillingCurrency] >= 0) {
            const QString code = value(row, BillingCurrency);
            if (code.isEmpty())
                failValue(row, BillingCurrency, QStringLiteral("empty; every charge states its currency (e.g. USD)"));
            charge.currency = currencyIndex(row.line, code);
        } else {
            charge.currency = m_defaultCurrency;
        }
        const QString pricing = value(row, PricingCategoryColumn);
        if (pricing.isEmpty())
            charge.pricing = PricingCategory::None;
        else if (pricing.compare(QLatin1String("Standard"), Qt::CaseInsensitive) == 0)
            charge.pricing = PricingCategory::Standard;
        else if (pricing.compare(QLatin1String("Committed"), Qt::CaseInsensitive) == 0)
            charge.pricing = PricingCategory::Committed;
        else if (pricing.compare(QLatin1String("Dynamic"), Qt::CaseInsensitive) == 0)
            charge.pricing = PricingCategory::Dynamic;
        else if (pricing.compare(QLatin1String("Other"), Qt::CaseInsensitive) == 0)
            charge.pricing = PricingCategory::Other;
        else
            failValue(row, PricingCategoryColumn, QStringLiteral("\"%1\" is not a FOCUS pricing category; expected "
                                                                 "Standard, Committed, Dynamic or Other")
                                                      .arg(shownValue(pricing)));
        const QString status = value(row, CommitmentDiscountStatus);
        if (status.isEmpty())
            charge.status = CommitmentStatus::None;
        else if (status.compare(QLatin1String("Used"), Qt::CaseInsensitive) == 0)
            charge.status = CommitmentStatus::Used;
        else if (status.compare(QLatin1String("Unused"), Qt::CaseInsensitive) == 0)
            charge.status = CommitmentStatus::Unused;
        else
            failValue(row, CommitmentDiscountStatus,
                      QStringLiteral("\"%1\" is not Used or Unused").arg(shownValue(status)));
        charge.resource = intern(value(row, ResourceId), ResourceId);
        charge.sku = intern(value(row, SkuId), SkuId);
        charge.region = intern(value(row, RegionId), RegionId);
        const QString service = value(row, ServiceName);
        charge.service = service.isEmpty() ? intern(value(row, ServiceCategory), ServiceCategory)
                                           : intern(service, ServiceName);
        charge.consumedUnit = intern(value(row, ConsumedUnit), ConsumedUnit);
        const QString commitmentId = value(row, CommitmentDiscountId);
        if (!commitmentId.isEmpty()) {
            charge.commitment = commitment(row, commitmentId);
        } else if (charge.status != CommitmentStatus::None) {
            failValue(row, CommitmentDiscountStatus,
                      QStringLiteral("\"%1\" on a row without CommitmentDiscountId; say which commitment was %1")
                          .arg(shownValue(status)));
        }
        m_result.rows.push_back(charge);
    }

    uint32_t commitment(const CsvRecord &row, const QString &id)
    {
        auto found = m_commitments.constFind(id);
        uint32_t index = 0;
        if (found == m_commitments.constEnd()) {
            index = uint32_t(m_result.commitments.size());
            m_result.commitments.push_back({id.toStdString(), {}, {}, {}});
            m_commitments.insert(id, index);
        } else {
            index = found.value();
        }
        engine::FocusCommitment &c = m_result.commitments[index];
        // Filled from the first row that states them (usage rows may leave them out).
        const auto fill = [&](std::string &target, Column column) {
            if (target.empty())
                if (const QString text = value(row, column); !text.isEmpty())
                    target = text.toStdString();
        };
        fill(c.name, CommitmentDiscountName);
        fill(c.category, CommitmentDiscountCategory);
        fill(c.type, CommitmentDiscountType);
        return index;
    }

    // Two usage rows that charge the same thing for overlapping periods are the same usage
    // billed twice: refused, naming both lines.
    void checkOverlaps() const
    {
        const auto &rows = m_result.rows;
        // Fast pass: exports list each resource's hours in time order, and then every row
        // starting at or after the previous one's end for the same thing proves no overlap.
        // Anything else is settled by sorting.
        struct Key {
            uint32_t resource, sku, commitment, currency;
            uint8_t status, pricing;
            bool operator==(const Key &o) const
            {
                return resource == o.resource && sku == o.sku && commitment == o.commitment && currency == o.currency
                    && status == o.status && pricing == o.pricing;
            }
        };
        struct KeyHash {
            size_t operator()(const Key &k) const
            {
                uint64_t h = k.resource;
                h = h * 0x9E3779B97F4A7C15ULL + k.sku;
                h = h * 0x9E3779B97F4A7C15ULL + k.commitment;
                h = h * 0x9E3779B97F4A7C15ULL + (uint64_t(k.currency) << 16 | uint64_t(k.status) << 8 | k.pricing);
                return size_t(h ^ (h >> 29));
            }
        };
        std::unordered_map<Key, int64_t, KeyHash> lastEnd;
        bool ordered = true;
        for (const FocusCharge &r : rows) {
            if (r.category != ChargeCategory::Usage || (r.resource == 0 && r.commitment == 0))
                continue;
            const Key key{r.resource, r.sku, r.commitment, r.currency, uint8_t(r.status), uint8_t(r.pricing)};
            auto [it, inserted] = lastEnd.try_emplace(key, r.periodEnd);
            if (!inserted) {
                if (r.periodStart < it->second) {
                    ordered = false;
                    break;
                }
                it->second = r.periodEnd;
            }
        }
        if (ordered)
            return;
        std::vector<uint32_t> order;
        for (size_t i = 0; i < rows.size(); ++i) {
            const FocusCharge &r = rows[i];
            if (r.category == ChargeCategory::Usage && (r.resource != 0 || r.commitment != 0))
                order.push_back(uint32_t(i));
        }
        const auto key = [&rows](uint32_t i) {
            const FocusCharge &r = rows[i];
            return std::make_tuple(r.resource, r.sku, r.commitment, r.status, r.pricing, r.currency, r.periodStart, r.periodEnd);
        };
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
        for (size_t k = 1; k < order.size(); ++k) {
            const FocusCharge &a = rows[order[k - 1]];
            const FocusCharge &b = rows[order[k]];
            const bool sameThing = a.resource == b.resource && a.sku == b.sku && a.commitment == b.commitment
                && a.status == b.status && a.pricing == b.pricing && a.currency == b.currency;
            if (sameThing && b.periodStart < a.periodEnd) {
                const FocusCharge &first = a.line < b.line ? a : b;
                const FocusCharge &second = a.line < b.line ? b : a;
                const QString what = first.resource != 0 ? QStringLiteral("resource \"%1\"").arg(shownValue(QString::fromStdString(m_result.name(first.resource))))
                                                         : QStringLiteral("commitment \"%1\"").arg(shownValue(QString::fromStdString(m_result.commitments[first.commitment].id)));
                failField(int(second.line), QStringLiteral("ChargePeriodStart"),
                          QStringLiteral("the charge period overlaps the one on line %1 for the same %2, SKU, "
                                         "commitment and pricing (%3 to %4 against %5 to %6); the same usage "
                                         "would be counted twice")
                              .arg(first.line)
                              .arg(what, QString::fromStdString(isoTime(first.periodStart)),
                                   QString::fromStdString(isoTime(first.periodEnd)),
                                   QString::fromStdString(isoTime(second.periodStart)),
                                   QString::fromStdString(isoTime(second.periodEnd))));
            }
        }
    }

    struct TimeCache {
        QString text;
        int64_t seconds = 0;
        bool valid = false;
    };
    struct InternCache {
        QString text;
        uint32_t index = 0;
        bool valid = false;
    };

    QString m_source;
    FocusOptions m_options;
    TimeCache m_startCache, m_endCache;
    std::array<InternCache, kColumnCount> m_internCache{};
    FocusCharges m_result;
    std::array<int, kColumnCount> m_columns{};
    qsizetype m_fieldCount = 0;
    bool m_haveHeader = false;
    uint32_t m_defaultCurrency = 0;
    QHash<QString, uint32_t> m_names;
    QHash<QString, uint32_t> m_currencies;
    QHash<QString, uint32_t> m_commitments;
    int m_shownWarnings = 0;
    int m_hiddenWarnings = 0;
};

FocusCharges readFocus(QIODevice &device, const QString &source, const FocusOptions &options)
{
    FocusReader reader(source, options);
    const qint64 size = device.isSequential() ? 0 : device.size();
    qint64 records = 0;
    streamCsvRecords(device, source, limits::kFocusCsv, [&](CsvRecord &record) {
        reader.record(record);
        if (options.progress && ++records % 4096 == 0 && size > 0
            && !options.progress(std::min(1.0, double(device.pos()) / double(size))))
            throw FocusImportCancelled{};
    });
    return reader.finish();
}

} // namespace

FocusCharges readFocusCsv(const QString &path, const FocusOptions &options)
{
    checkImportFileKind(path);
    QFile file(path);
    const QString source = QFileInfo(path).fileName();
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    if (!file.isSequential())
        checkImportBytes(file.size(), source, limits::kFocusCsv);
    return readFocus(file, source, options);
}

FocusCharges parseFocusCsv(const QByteArray &csv, const QString &sourceName, const FocusOptions &options)
{
    QByteArray copy = csv;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    return readFocus(buffer, sourceName, options);
}

} // namespace headroom::store
