import FlowDSL

/// A `for-each` step's items in a report, in item order. Made from the step's item results at the
/// end of a run, it keeps the results and makes an item's `ItemReport` (its id, its item and
/// outputs masked) only when that item is read: the JSON report writes a 100,000-item step's
/// records straight from the results, and the HTML page and the trace read only the items they
/// draw, so no 100,000 records are built, copied and freed for every run with a report.
package struct ItemReports: RandomAccessCollection, Sendable, Equatable, Codable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        /// Records made already (tests, a decoded report).
        case reports([ItemReport])
        /// The step's item results, each item's id `idPrefix` + its index + `]`.
        case results(idPrefix: String, results: [ItemResult], masker: SecretMasker)
    }

    private let storage: Storage

    /// The items `reports` give.
    package init(_ reports: [ItemReport]) { storage = .reports(reports) }

    /// The items given in a literal.
    package init(arrayLiteral reports: ItemReport...) { storage = .reports(reports) }

    /// The items of the step `stepID` from its item results, each text masked by `masker` when read.
    package init(step stepID: String, results: [ItemResult], masker: SecretMasker) {
        storage = .results(idPrefix: stepID + "[", results: results, masker: masker)
    }

    package var startIndex: Int { 0 }

    package var endIndex: Int {
        switch storage {
        case .reports(let reports): reports.count
        case .results(_, let results, _): results.count
        }
    }

    package subscript(position: Int) -> ItemReport {
        switch storage {
        case .reports(let reports):
            return reports[position]
        case .results(let idPrefix, let results, let masker):
            let result = results[position]
            // The id appended to, not interpolated: most ids fit in a small string.
            var id = idPrefix
            id += String(position)
            id += "]"
            return ItemReport(
                id: id, item: Self.masked(result.item, masker), state: result.state,
                outputs: Self.masked(result.outputs, masker), error: result.error)
        }
    }

    package static func == (lhs: ItemReports, rhs: ItemReports) -> Bool { lhs.elementsEqual(rhs) }

    package init(from decoder: any Decoder) throws { self.init(try [ItemReport](from: decoder)) }

    package func encode(to encoder: any Encoder) throws { try Array(self).encode(to: encoder) }

    /// Writes each item's record as `ItemReport` writes it, from the results without making it.
    func write(to writer: inout JSONWriter) {
        writer.beginArray()
        switch storage {
        case .reports(let reports):
            for item in reports {
                Self.write(error: item.error, item: item.item, outputs: item.outputs, state: item.state, to: &writer) {
                    $0.string(item.id)
                }
            }
        case .results(let idPrefix, let results, let masker):
            for (index, result) in results.enumerated() {
                Self.write(
                    error: result.error, item: Self.masked(result.item, masker),
                    outputs: Self.masked(result.outputs, masker), state: result.state, to: &writer
                ) { $0.string(idPrefix, index, "]") }
            }
        }
        writer.endArray()
    }

    /// One item's record, its keys in sorted order (as `JSONEncoder` wrote them); `id` writes its id.
    private static func write(
        error: String?, item: Value, outputs: [String: Value], state: StepState, to writer: inout JSONWriter,
        id: (inout JSONWriter) -> Void
    ) {
        writer.beginObject()
        if let error {
            writer.field("error")
            writer.string(error)
        }
        writer.field("id")
        id(&writer)
        writer.field("item")
        writer.value(item)
        writer.field("outputs")
        // Most items have no outputs: `{}` written without the generic `object` call, whose
        // metadata look-ups cost as much as the rest of a 100,000-item report's item records.
        if outputs.isEmpty {
            writer.beginObject()
            writer.endObject()
        } else {
            writer.object(outputs) { $0.value($1) }
        }
        writer.field("state")
        writer.string(state.rawValue)
        writer.endObject()
    }

    private static func masked(_ value: Value, _ masker: SecretMasker) -> Value {
        value.mappingStrings { masker($0) }
    }

    /// Most items have no outputs: no mapping (and no new dictionary) for them.
    private static func masked(_ outputs: [String: Value], _ masker: SecretMasker) -> [String: Value] {
        outputs.isEmpty ? [:] : outputs.mapValues { masked($0, masker) }
    }
}
