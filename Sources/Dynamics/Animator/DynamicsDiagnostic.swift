import Foundation

/// A problem the animator noticed and handled without crashing: a bad value it ignored, a shape
/// it replaced by a fallback, a call it could not honour.
///
/// Diagnostics are appended to ``DynamicAnimator/diagnostics`` and passed to
/// ``DynamicAnimator/diagnosticHandler``. They replace the exceptions UIKit raises: the call keeps
/// the last good state (or the documented fallback) and the simulation carries on.
public struct DynamicsDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What happened and what was done about it, in one sentence.
    public var message: String

    /// Creates a diagnostic with `message`.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
