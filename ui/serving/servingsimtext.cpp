#include "servingsimtext.h"

#include "cli/common/format.h"

namespace headroom::ui {

QString sharePercent(double share, int decimals)
{
    return cli::formatDecimal(share * 100, decimals, true) + QStringLiteral(" %");
}

QString msText(double value)
{
    return cli::formatDecimal(value, value < 100 ? 1 : 0);
}

} // namespace headroom::ui
