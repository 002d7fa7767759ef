/// Counts the bytes the snapshot readers set aside for what a file says it holds, so a test
/// can check that reading stays within a bound of the input's size.
///
/// Why a meter and not the process's memory: tests run in parallel, so resident memory measures
/// everyone; and a meter is exact and the same every run. It is honest as long as every
/// allocation whose size comes from the file is made through ``reserve(_:of:)`` next to the
/// `reserveCapacity` (or `Array(repeating:count:)`) it stands for — the readers do so for every
/// table whose length is read from the file: the world's slots and lists
/// (`World+Snapshot.swift`), the animator's item slots (`DynamicAnimator+Snapshot.swift`), the
/// state tapes. Allocations of a fixed size, or of one entry per entry read (each entry taking
/// input bytes), need no meter: they cannot outgrow the input by more than a fixed factor.
///
/// Nothing is counted unless a meter is bound for the task: `ReadAllocationMeter.$current.withValue(meter) { … }`.
package final class ReadAllocationMeter: @unchecked Sendable {
    /// The bytes reserved so far.
    package private(set) var bytes = 0
    /// The largest single reservation, in bytes.
    package private(set) var largest = 0

    package init() {}

    /// The meter bound to the running task, if any.
    @TaskLocal package static var current: ReadAllocationMeter?

    /// Notes a reservation of `count` values of `type`.
    package static func reserve<T>(_ count: Int, of type: T.Type) {
        guard let meter = current else { return }
        let size = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        let n = size.overflow ? Int.max : size.partialValue
        meter.bytes = meter.bytes.addingReportingOverflow(n).overflow ? Int.max : meter.bytes + n
        meter.largest = max(meter.largest, n)
    }
}
