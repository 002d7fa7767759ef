import Foundation

/// The state of an animator's items after one frame.
///
/// A frame is one `step()` of the animator, or one `advance(by:)` that ran at least one fixed
/// step (or, while the animator interpolates, one that moved the items' shown poses). Frame observers receive one report per frame; `CSVFrameWriter` turns reports into rows.
///
/// A report is a plain value: it copies the item states at the end of the frame, so keeping it
/// keeps nothing of the animator alive.
public struct FrameReport: Sendable, Equatable, Codable {
    /// The frame's number, counted per animator from 0.
    public var index: Int

    /// The animator's `elapsedTime` after this frame, in seconds.
    public var time: TimeInterval

    /// How many fixed steps (of `stepDuration` seconds each) this frame ran; 1 for a `step()`.
    public var steps: Int

    /// One entry per item, in the order the items were first added to the animator.
    public var items: [Item]

    /// The time the items' poses show, in seconds on the ``time`` scale: ``time`` itself when they
    /// show the last step's own pose; up to one `stepDuration` earlier when the animator
    /// interpolates (`DynamicAnimator.interpolatesItems`) and the display's time lies inside the
    /// last step, so the items show poses between that step's start and end. Velocities and
    /// `isResting` are the step's own. Default ``time``.
    public var presentedTime: TimeInterval

    /// Whether the items show poses between the last two steps rather than the last step's own.
    public var isInterpolated: Bool { presentedTime < time }

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - index: The frame's number, from 0.
    ///   - time: The animator's elapsed time after the frame, in seconds.
    ///   - steps: The fixed steps run in this frame.
    ///   - items: The item states, in the order the items were first added.
    public init(index: Int, time: TimeInterval, steps: Int, items: [Item]) {
        self.init(index: index, time: time, steps: steps, items: items, presentedTime: time)
    }

    /// Creates a report whose items show poses at `presentedTime`.
    ///
    /// - Parameters:
    ///   - index: The frame's number, from 0.
    ///   - time: The animator's elapsed time after the frame, in seconds.
    ///   - steps: The fixed steps run in this frame.
    ///   - items: The item states, in the order the items were first added.
    ///   - presentedTime: The time the item poses show, in seconds (``presentedTime``).
    public init(index: Int, time: TimeInterval, steps: Int, items: [Item], presentedTime: TimeInterval) {
        self.index = index
        self.time = time
        self.steps = steps
        self.items = items
        self.presentedTime = presentedTime
    }

    private enum CodingKeys: String, CodingKey { case index, time, steps, items, presentedTime }

    /// Decodes a report; one written before ``presentedTime`` existed shows its ``time``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        index = try c.decode(Int.self, forKey: .index)
        time = try c.decode(TimeInterval.self, forKey: .time)
        steps = try c.decode(Int.self, forKey: .steps)
        items = try c.decode([Item].self, forKey: .items)
        presentedTime = try c.decodeIfPresent(TimeInterval.self, forKey: .presentedTime) ?? time
    }

    /// The state of one item at the end of a frame.
    public struct Item: Sendable, Equatable, Codable {
        /// The item's `BasicDynamicItem.name`; `nil` for other items and unnamed ones.
        public var name: String?

        /// The item's center in the animator's coordinate space, in points.
        public var center: CGPoint

        /// The item's rotation, in radians, turning from +x toward +y.
        public var angle: CGFloat

        /// The item's linear velocity in points per second, as `linearVelocity(for:)` reports it.
        public var velocity: CGPoint

        /// The item's angular velocity in radians per second, as `angularVelocity(for:)` reports it.
        public var angularVelocity: CGFloat

        /// Whether the item is at rest (asleep) after this frame.
        public var isResting: Bool

        /// Creates an item state.
        ///
        /// - Parameters:
        ///   - name: The item's name; default `nil`.
        ///   - center: The center, in points.
        ///   - angle: The rotation, in radians; default 0.
        ///   - velocity: The linear velocity, in points per second; default `.zero`.
        ///   - angularVelocity: The angular velocity, in radians per second; default 0.
        ///   - isResting: Whether the item is at rest; default `false`.
        public init(
            name: String? = nil,
            center: CGPoint,
            angle: CGFloat = 0,
            velocity: CGPoint = .zero,
            angularVelocity: CGFloat = 0,
            isResting: Bool = false
        ) {
            self.name = name
            self.center = center
            self.angle = angle
            self.velocity = velocity
            self.angularVelocity = angularVelocity
            self.isResting = isResting
        }
    }
}
