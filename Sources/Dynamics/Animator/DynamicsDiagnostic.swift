import Foundation

/// Something the animator noticed and handled without crashing: a bad value it ignored, a shape
/// it replaced by a fallback, a call it could not honour — or, as a ``Severity-swift.enum/note``,
/// a harmless call that did nothing (removing what is not there, as UIKit silently allows).
///
/// Diagnostics are appended to ``DynamicAnimator/diagnostics`` and passed to
/// ``DynamicAnimator/diagnosticHandler``. They replace the exceptions UIKit raises: the call keeps
/// the last good state (or the documented fallback) and the simulation carries on.
///
/// A program reacts to ``kind-swift.property`` (what went wrong, and the item, behaviour or
/// property it concerns); ``message`` is the same thing in a sentence for people, and its wording
/// may change between versions.
///
/// ```swift
/// animator.diagnosticHandler = { diagnostic in
///     if case .collisionShapeReplaced(let item) = diagnostic.kind, item == ObjectIdentifier(card) {
///         print("the card collides as its rectangle or hull:", diagnostic.message)
///     }
/// }
/// ```
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

    /// What went wrong (and what the animator did about it), for a program to switch on.
    ///
    /// A small set of cases, as NIO's `ChannelError`: each groups the reports a program would
    /// answer the same way, and ``DynamicsDiagnostic/message`` tells them apart for people.
    /// Items and behaviours are named by `ObjectIdentifier` (compare with
    /// `ObjectIdentifier(yourItem)`), which keeps a diagnostic `Sendable` and `Hashable` without
    /// holding the object alive; an identifier may be reused once its object is deallocated, and
    /// two identical runs name their objects differently (compare their ``DynamicsDiagnostic/message``s).
    /// Properties and calls are named as in Swift: `"GravityBehavior.magnitude"`,
    /// `"DynamicAnimator.advance(by:)"`.
    public enum Kind: Sendable, Hashable {
        // Values handed to a property or a call.

        /// A property or argument was NaN or infinite (or, for a point, a vector or a rectangle,
        /// had such a component). The animator kept the last good value, or used the documented
        /// fallback (a factory's default, `(0, 0)`), or, for a query, answered nothing.
        case nonFiniteValue(property: String)
        /// A finite property or argument was outside its documented range: negative where that
        /// makes no sense, beyond ±10⁷ pt, above a limit (`substeps` 1…64, a spring stiffer than
        /// a sub-step resolves, more steps than one `advance(by:)` runs), or empty (a ray of no
        /// length, a reversed range). The animator kept the last good value, clamped it (the
        /// message says to what), or ignored the call.
        case valueOutOfRange(property: String)

        // Items.

        /// An item's own state could not be used when it was read (on adding, or on
        /// ``DynamicAnimator/updateItem(usingCurrentState:)``): a non-finite or far-away
        /// `center` (`property` `"center"`), a non-finite `transform` (`"transform"`), or a
        /// non-finite, negative, zero or huge `bounds` side (`"bounds"`). The last good value or
        /// the message's fallback (a 1 pt side, the origin) was used.
        case unusableItemState(item: ObjectIdentifier, property: String)
        /// The item's collision shape is not the one it asked for: its
        /// ``DynamicItem/collisionBoundingPath`` is missing, draws nothing, has no area, reaches
        /// too far, is concave or self-intersecting, has several subpaths or non-finite points;
        /// or the shape came out degenerate. The convex hull, the first subpath, the rectangle or
        /// a 1 pt square was used instead (the message says which).
        case collisionShapeReplaced(item: ObjectIdentifier)
        /// The item (or group) is in a grouping the animator cannot honour: a group inside a
        /// group, an item in two groups, an item in a group and in a behaviour on its own, or a
        /// group with no usable members. The inner group or later membership is left out, or the
        /// item moves with its group only (reported once).
        case groupConflict(item: ObjectIdentifier)
        /// ``DynamicAnimator/updateItem(usingCurrentState:)`` was given an item that no
        /// behaviour of this animator holds; ignored.
        case itemNotInAnimator(item: ObjectIdentifier)
        /// A force, torque or impulse on the item — from a behaviour, a field's law or its
        /// evaluation block — was non-finite or too large. It was dropped for the steps where
        /// that happens; the item and the world carry on (reported once per item and cause).
        case nonFiniteForce(item: ObjectIdentifier)

        // Behaviours.

        /// ``DynamicAnimator/addBehavior(_:)`` or ``DynamicBehavior/addChildBehavior(_:)`` was
        /// given a behaviour that already has a place: in this animator, in another one, or under
        /// a parent. Ignored (UIKit raises an exception).
        case behaviorAlreadyPlaced(behavior: ObjectIdentifier)
        /// ``DynamicBehavior/addChildBehavior(_:)`` would make a cycle: the child is the
        /// behaviour itself or one of its ancestors. Ignored.
        case behaviorCycle(behavior: ObjectIdentifier)
        /// An ``AttachmentBehavior`` attaches an item to itself; the attachment does nothing.
        case attachmentToItself(behavior: ObjectIdentifier)
        /// The animator already tells 31 collision behaviours apart (one bit each); this
        /// ``CollisionBehavior`` collides nothing until another one leaves.
        case tooManyCollisionBehaviors(behavior: ObjectIdentifier)
        /// A delegate does not implement an optional `method` (its Swift name), so those events
        /// are not sent to it. A ``Severity-swift.enum/note``, once per delegate type and method.
        case delegateMethodMissing(method: String)

        // Boundaries and reference bounds.

        /// A collision behaviour's `addBoundary(withIdentifier:for:)` or
        /// `addBoundary(withIdentifier:from:to:)` was given a path or points
        /// that make no boundary (no segment, non-finite points, beyond ±10⁷ pt, equal ends) or
        /// an identifier that is not equal to itself (a NaN). `identifier` is its description.
        /// The boundary was not added.
        case unusableBoundary(identifier: String)
        /// There are no usable reference bounds, so no reference-bounds boundary: the animator's
        /// bounds are non-finite or beyond ±10⁷ pt, its reference view was deallocated, it was
        /// made without any, or a collision behaviour's insets leave no area. The last usable
        /// bounds (or none) are kept.
        case referenceBoundsUnusable

        // The animator's own work.

        /// `step()`, `advance(by:)` or `snapshot()` was called from a step's callbacks (an
        /// `action`, a delegate, a frame observer). The step calls were ignored; the snapshot
        /// leaves out what those callbacks added or removed.
        case calledDuringStep
        /// Callbacks kept changing the behaviour tree, or kept queueing changes, round after
        /// round (16 rounds of `willMove(to:)`, 64 rounds of queued changes); the rest was
        /// dropped so the step ends.
        case runawayChanges
        /// Items overlap so deeply that the engine limited each one's contacts (see the message
        /// for the limit); the heap spreads, but some overlapping items may pass through each
        /// other until it has. Reported once.
        case crowdLimited
        /// ``DynamicAnimator/restore(_:)`` refused a snapshot and threw `error`; the animator is
        /// unchanged.
        case snapshotRefused(DynamicsSnapshotError)
        /// The engine's validation walk (only under `DYNAMICS_VALIDATE=1`) found a broken
        /// invariant after a step; reported once per animator, and on standard error.
        case engineValidationFailed

        // Notes and the rest.

        /// A remove call found nothing to remove: `removeItem(_:)` of an item the behaviour does
        /// not hold, `removeBoundary(withIdentifier:)`, `removeChildBehavior(_:)` or
        /// `removeBehavior(_:)` of something not there (a ``Severity-swift.enum/note``, as UIKit
        /// ignores these), or `removeFrameObserver(_:)` with an unknown token. Nothing changed.
        case nothingToRemove
        /// A diagnostic made with ``DynamicsDiagnostic/init(message:severity:)``, which names no
        /// kind. The library itself always gives one.
        case other
    }

    /// What went wrong, for a program to switch on. Default ``Kind-swift.enum/other`` for a
    /// diagnostic made with ``init(message:severity:)``.
    public var kind: Kind

    /// What happened and what was done about it, in one sentence.
    public var message: String

    /// How much it matters. Default ``Severity-swift.enum/warning``.
    public var severity: Severity

    /// Creates a diagnostic of `kind` with `message` and `severity` (default `.warning`).
    public init(kind: Kind, message: String, severity: Severity = .warning) {
        self.kind = kind
        self.message = message
        self.severity = severity
    }

    /// Creates a diagnostic with `message` and `severity` (default `.warning`), of kind
    /// ``Kind-swift.enum/other``.
    public init(message: String, severity: Severity = .warning) {
        self.init(kind: .other, message: message, severity: severity)
    }

    /// The message; a note's starts with `note: `.
    public var description: String { severity == .note ? "note: \(message)" : message }
}

extension DynamicsDiagnostic.Kind {
    /// The kind for a refused value of `property`: ``nonFiniteValue(property:)`` when `isFinite`
    /// is false (a NaN or infinite component), else ``valueOutOfRange(property:)``.
    static func refused(_ property: String, isFinite: Bool) -> Self {
        isFinite ? .valueOutOfRange(property: property) : .nonFiniteValue(property: property)
    }

    /// ``refused(_:isFinite:)`` for a point.
    static func refused(_ property: String, _ point: CGPoint) -> Self {
        refused(property, isFinite: point.x.isFinite && point.y.isFinite)
    }
}
