#pragma once

#include <QPushButton>
#include <cstdint>
#include <optional>

class QWidget;

namespace headroom::ui {

// The hidden "Save my values again" button shown beside an editor's status while it holds
// values a save refused.
QPushButton *newRetryButton(QWidget *parent, const char *objectName);

// Values of an editor (a scenario, a training job) that a save refused — because someone else
// saved another version meanwhile, or because the server connection was lost — kept on the
// form for a retry, with the retry button shown while there are any. While offline it also
// keeps what the first refused edit was based on and the stored version it was made on, so
// that all edits made offline are saved as one once the connection is back.
template <typename T>
class RefusedEdit {
public:
    void setRetryButton(QPushButton *button) { m_button = button; }

    // The values waiting for a retry, if any.
    const std::optional<T> &values() const { return m_values; }
    // What the first edit made offline was based on.
    const std::optional<T> &offlineBase() const { return m_offlineBase; }

    // Keeps `values` for a retry and shows the button.
    void keep(const T &values)
    {
        m_values = values;
        if (m_button)
            m_button->show();
    }
    // Drops the kept values and hides the button.
    void clear()
    {
        m_values.reset();
        if (m_button)
            m_button->hide();
    }
    // Keeps `values` edited while offline; the first such edit also records its `base` and
    // the stored `version` it was made on, which later ones pile up on.
    void keepOffline(const T &base, const T &values, int64_t version)
    {
        if (!m_offlineBase) {
            m_offlineBase = base;
            m_offlineVersion = version;
        }
        keep(values);
    }

    // What to save once the connection is back: the base, the values and the version.
    struct OfflineEdit {
        T base;
        T values;
        int64_t version = 0;
    };
    // The offline edit to save now, forgetting its base and version (the values stay kept
    // until saved or cleared); nullopt when there is none.
    std::optional<OfflineEdit> takeOffline()
    {
        if (!m_offlineBase || !m_values || !m_offlineVersion)
            return std::nullopt;
        OfflineEdit edit{*m_offlineBase, *m_values, *m_offlineVersion};
        m_offlineBase.reset();
        m_offlineVersion.reset();
        return edit;
    }

private:
    QPushButton *m_button = nullptr;
    std::optional<T> m_values;
    std::optional<T> m_offlineBase;
    std::optional<int64_t> m_offlineVersion;
};

} // namespace headroom::ui
