import Foundation

/// Something the animator noticed and handled without crashing: a bad value it ignored, a shape
/// it replaced by a fallback, a call it could not honour — or, as a ``Severity-swift.enum/note``,
/// a harmless call that did nothing (removing what is not there, as UIKit silently allows).
///
/// Diagnostics are appended to ``DynamicAnimator/diagnostics`` and passed to
/// ``DynamicAnimator/diagnosticHandler``. They replace the exceptions UIKit raises: the call keeps
/// the last good state (or the documented fallback) and the simulation carries on.
public struct DynamicsDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How much a diagnostic matters.
    public enum Severity: Int, Sendable, Hashable, Comparable {
        /// Nothing went wrong: a call had nothing to do (removing a boundary, item, child or
        /// behaviour that is not there, which UIKit ignores) or an optional delegate method is not
        /// implemented. Worth reading when something does not move as you expect.
        case note = 0
        /// A value or call was refused or replaced by a fallback; the last good state was kept.
        case warning = 1

        /// Notes sort before warnings.
        public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
    }

    /// What happened and what was done about it, in one sentence.
    public var message: String

    /// How much it matters. Default ``Severity-swift.enum/warning``.
    public var severity: Severity

    /// Creates a diagnostic with `message` and `severity` (default `.warning`).
    public init(message: String, severity: Severity = .warning) {
        self.message = message
        self.severity = severity
    }

    /// The message; a note's starts with `note: `.
    public var description: String { severity == .note ? "note: \(message)" : message }
}
