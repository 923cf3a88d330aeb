#include "catalogentrydialog.h"

#include "catalogtablemodel.h"
#include "store/common/storeerror.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace headroom::ui {

CatalogEntryDialog::CatalogEntryDialog(CatalogKind kind, const QJsonObject &initial, bool editingExisting,
                                       QWidget *parent)
    : QDialog(parent)
    , m_kind(kind)
    , m_initial(initial)
    , m_error(new QLabel(this))
{
    setObjectName("catalogEntryDialog");
    setWindowTitle(editingExisting ? tr("Edit %1").arg(catalogKindName(kind, 1))
                                   : tr("Add %1").arg(catalogKindName(kind, 1)));
    // One form per page (tab) of fields; a single page needs no tabs.
    std::vector<std::pair<QString, QFormLayout *>> forms;
    const auto formFor = [&](const QString &page) {
        for (const auto &[name, form] : forms)
            if (name == page)
                return form;
        forms.emplace_back(page, new QFormLayout);
        return forms.back().second;
    };
    for (const CatalogField &field : catalogFields(kind)) {
        QFormLayout *form = formFor(field.page);
        const QJsonValue value = entryValue(initial, field);
        QWidget *editor = nullptr;
        switch (field.type) {
        case CatalogField::Type::Text: {
            auto *line = new QLineEdit(value.toString(), this);
            if (field.key == QLatin1String("id")) {
                line->setValidator(new QRegularExpressionValidator(
                    QRegularExpression(QStringLiteral("[a-z0-9._-]*")), line));
                line->setPlaceholderText(tr("e.g. h100-sxm"));
            }
            line->setReadOnly(field.identity && editingExisting);
            editor = line;
            break;
        }
        case CatalogField::Type::Decimal: {
            auto *line = new QLineEdit(value.toString(), this);
            line->setValidator(new QRegularExpressionValidator(
                QRegularExpression(QStringLiteral("\\d{0,12}(\\.\\d{0,9})?")), line));
            line->setPlaceholderText(tr("exact decimal, e.g. 6.88"));
            if (!field.unit.isEmpty())
                line->setToolTip(field.tooltip);
            editor = line;
            break;
        }
        case CatalogField::Type::Integer: {
            auto *spin = new QSpinBox(this);
            spin->setRange(int(field.minimum), int(std::min(field.maximum, 2.0e9)));
            spin->setValue(int(value.toInteger(qint64(field.minimum))));
            spin->setGroupSeparatorShown(true);
            if (!field.unit.isEmpty())
                spin->setSuffix(QLatin1Char(' ') + field.unit);
            editor = spin;
            break;
        }
        case CatalogField::Type::Number: {
            auto *spin = new QDoubleSpinBox(this);
            spin->setDecimals(std::max(field.decimals, 2));
            spin->setRange(field.minimum, field.maximum);
            spin->setValue(value.isDouble() ? value.toDouble() / field.scale : field.minimum);
            m_shownAtStart[field.key] = spin->value();
            spin->setGroupSeparatorShown(true);
            if (!field.unit.isEmpty())
                spin->setSuffix(QLatin1Char(' ') + field.unit);
            editor = spin;
            break;
        }
        case CatalogField::Type::Choice: {
            auto *combo = new QComboBox(this);
            combo->addItems(field.choices);
            combo->setCurrentText(value.toString(field.choices.value(0)));
            editor = combo;
            break;
        }
        }
        editor->setObjectName(field.key);
        editor->setToolTip(field.tooltip);
        const bool unitInLabel = field.type == CatalogField::Type::Decimal || field.type == CatalogField::Type::Text;
        form->addRow((unitInLabel ? field.header() : field.label) + QLatin1Char(':'), editor);
        m_editors[field.key] = editor;
        if (field.presence) {
            // The object's fields are edited only while the entry holds it.
            auto *combo = qobject_cast<QComboBox *>(editor);
            const auto enable = [this, key = field.key, combo] {
                for (auto &[k, w] : m_editors)
                    if (k.startsWith(key + QLatin1Char('.')))
                        w->setEnabled(combo->currentIndex() == 0);
            };
            connect(combo, &QComboBox::currentIndexChanged, this, enable);
            m_enablers.push_back(enable);
        }
    }
    for (const auto &enable : m_enablers)
        enable();
    m_error->setObjectName("catalogEntryError");
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    if (forms.size() == 1) {
        layout->addLayout(forms.front().second);
    } else {
        auto *tabs = new QTabWidget(this);
        tabs->setObjectName("catalogEntryPages");
        for (const auto &[page, form] : forms) {
            auto *pageWidget = new QWidget(tabs);
            pageWidget->setLayout(form);
            tabs->addTab(pageWidget, page.isEmpty() ? tr("Specifications") : page);
        }
        layout->addWidget(tabs);
    }
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    setMinimumWidth(460);
}

QJsonObject CatalogEntryDialog::entry() const
{
    QJsonObject out = m_initial;
    for (const CatalogField &field : catalogFields(m_kind)) {
        QWidget *editor = m_editors.at(field.key);
        QVariant shown;
        if (auto *line = qobject_cast<QLineEdit *>(editor))
            shown = line->text();
        else if (auto *spin = qobject_cast<QSpinBox *>(editor))
            shown = spin->value();
        else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(editor)) {
            // Untouched, a number keeps its stored value rather than the one rounded for
            // display (81,559 MiB is shown as 79.65 GiB, which is 3 MiB more).
            const QJsonValue stored = entryValue(m_initial, field);
            if (stored.isDouble() && dspin->value() == m_shownAtStart.at(field.key)) {
                setEntryValue(out, field, stored);
                continue;
            }
            shown = dspin->value();
        }
        else if (auto *combo = qobject_cast<QComboBox *>(editor))
            shown = combo->currentText();
        setEntryValue(out, field, storedValue(field, shown));
    }
    return out;
}

QString CatalogEntryDialog::errorText() const
{
    return m_error->isVisible() ? m_error->text() : QString();
}

void CatalogEntryDialog::accept()
{
    try {
        validateCatalogEntry(m_kind, entry());
    } catch (const store::StoreError &e) {
        m_error->setText(e.message());
        m_error->show();
        return;
    }
    QDialog::accept();
}

} // namespace headroom::ui
