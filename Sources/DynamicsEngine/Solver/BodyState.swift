// The per-step body records the solver phases read and write, indexed by awake index (see
// `StepContext`): what the contact and joint solvers share with the integration loops.

/// Velocity and position-change state of an awake body during a step: the solver's working record.
/// 32 bytes, so two fit a cache line; static and sleeping bodies share one zero record that the
/// solver may write to harmlessly (its masses are zero). The wide solver reads it as two rows of
/// four floats, (v.x, v.y, w, flags) and (dp.x, dp.y, dq.c, dq.s): the field order is part of the
/// layout (checked by `BodyState.layoutIsAsExpected`).
struct BodyState {
    var v: Vec2 = .zero
    var w: Float = 0
    /// Always 0: it pads the velocity row to four floats, and the wide solver writes 0 back into it.
    var flags: UInt32 = 0
    var dp: Vec2 = .zero
    var dq: Rot = .identity

    /// Whether the fields sit where the wide solver's vector loads expect them.
    static var layoutIsAsExpected: Bool {
        MemoryLayout<BodyState>.size == 32 && MemoryLayout<BodyState>.offset(of: \BodyState.v) == 0
            && MemoryLayout<BodyState>.offset(of: \BodyState.w) == 8 && MemoryLayout<BodyState>.offset(of: \BodyState.flags) == 12
            && MemoryLayout<BodyState>.offset(of: \BodyState.dp) == 16 && MemoryLayout<BodyState>.offset(of: \BodyState.dq) == 24
            && MemoryLayout<Vec2>.size == 8 && MemoryLayout<Rot>.size == 8
    }
}

/// Per-step constants of an awake body for integrating velocities.
struct BodyStepData {
    var invMass: Float = 0
    var invI: Float = 0
    var linearDelta: Vec2 = .zero       // h · (gravity + force / m)
    var angularDelta: Float = 0         // h · torque / I
    var linearDampingFactor: Float = 1  // 1 / (1 + h·c)
    var angularDampingFactor: Float = 1
    var maxExtent: Float = 0
    var isDynamic = false
}
