import FlowDSL

/// The date of a day counted from 1970-01-01, by FlowDSL's one `civil_from_days` (`DateText`,
/// which the expression functions use), for the command line's event timestamps: as `gmtime`
/// computes it, without its lock and its `tm` record. Package only: the command line cannot see
/// FlowDSL.
package enum CalendarDays {
    /// The proleptic Gregorian year, month (1–12) and day (1–31) of day `days` since 1970-01-01.
    package static func date(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (year, month, day) = DateText.civil(fromDays: Int(days))
        return (Int64(year), Int64(month), Int64(day))
    }
}
