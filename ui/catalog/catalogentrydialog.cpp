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
    auto *form = new QFormLayout;
    for (const CatalogField &field : catalogFields(kind)) {
        const QJsonValue value = initial.value(field.key);
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
    }
    m_error->setObjectName("catalogEntryError");
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
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
        else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(editor))
            shown = dspin->value();
        else if (auto *combo = qobject_cast<QComboBox *>(editor))
            shown = combo->currentText();
        out.insert(field.key, storedValue(field, shown));
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
