/// What the phases of one step share, built once after the narrow phase and handed from phase to
/// phase: the step's sizes and softness, raw views of the slot pools, and the per-step arrays each
/// phase fills for the next (dense body records, constraints in solve order, their colours).
///
/// The views are valid for the rest of the step: after the pair search nothing is inserted into a
/// pool (the narrow phase only frees contacts, waking only moves bodies between lists), so no block
/// moves. They must not be kept past `World.step`.
struct StepContext {
    // The step.
    let dt: Float
    let substeps: Int
    /// Sub-step (s).
    let h: Float
    let invH: Float
    let softness: Softness
    /// Contacts with a static body are twice as stiff (Box2D's choice: nothing on the other side gives).
    let staticSoftness: Softness
    let joint: JointContext

    // Views of the slot pools.
    let bodies: UnsafeMutablePointer<Body>
    let shapes: UnsafeMutablePointer<Shape>
    let contacts: UnsafeMutablePointer<Contact>
    let contactSlots: Int
    let joints: UnsafeMutablePointer<Joint>
    let jointSlots: Int

    // Dense body records: index k is `sets.awake[k]`; index `awakeCount` (`dummy`) is the shared
    // zero record for static bodies, and after it each thread has a record the wide solver writes
    // its unused lanes to (`trash(thread:)`).
    let awakeCount: Int
    let states: UnsafeMutablePointer<BodyState>
    let sims: UnsafeMutablePointer<BodyStepData>
    var dummy: Int32 { Int32(awakeCount) }
    /// Thread `t`'s trash record: `trashSpacing` records (128 bytes) past the dummy and each
    /// other. Why apart: every lane with a static body reads the dummy and writes a trash record,
    /// and records sharing a cache line (or the pair of lines a core fetches together) made each
    /// write by one thread a miss for the other thread's next read.
    func trash(thread t: Int) -> Int32 { Int32(StepContext.trashIndex(awake: awakeCount, thread: t)) }
    /// `trash(thread:)` for a step of `awake` awake bodies.
    static func trashIndex(awake: Int, thread t: Int) -> Int { awake + trashSpacing * (t + 1) }
    static let trashSpacing = 4
    /// Records to reserve: the awake bodies', the dummy's and `threads` trash records with their spacing.
    static func stateCount(awake: Int, threads: Int) -> Int { awake + trashSpacing * (threads + 1) }

    // Filled by `prepareJoints`: the awake joints (joint order), each one's place in solve order,
    // the first place of each colour (`jointStart[c]..<jointStart[c + 1]`), and their sims.
    var jointList: [Int32] = []
    var jointSlot: [Int32] = []
    var jointStart: [Int] = []
    var jointSims: UnsafeMutablePointer<JointSim>? = nil

    // Filled by `prepareContacts`: the solved contacts in contact order, the first place of each
    // colour in solve order, the overflow constraints (colour slot 0, scalar) and the wide ones
    // (`wideStart[c]..<wideStart[c + 1]` for colour c ≥ 1).
    var solvedIndices: UnsafeMutablePointer<SolvedContact>? = nil
    /// The solved contacts in solve order, with what their preparation reads.
    var orderedContacts: UnsafeMutablePointer<ContactInput>? = nil
    var solvedCount = 0
    var anyRestitution = false
    var contactStart: [Int] = []
    var overflowCount = 0
    var constraints: UnsafeMutablePointer<ContactConstraint>? = nil
    var wideStart: [Int] = []
    var wideCount = 0
    var wide: UnsafeMutablePointer<WideContact>? = nil
    /// Each wide constraint's fields that the sub-steps do not read (`WideContactExtras`), same index.
    var wideExtras: UnsafeMutablePointer<WideContactExtras>? = nil
    /// The solved contacts' impulses in contact order (see `SolvedImpulses`).
    var impulses: UnsafeMutablePointer<SolvedImpulses>? = nil
}

extension World {
    /// The context of a step of `dt` seconds in `substeps` sub-steps. The body records are not
    /// cleared here: `prepareJoints` writes every one, in parallel (a serial clear of records the
    /// other core wrote last step cost a cache miss per line).
    func makeStepContext(dt: Float, substeps: Int) -> StepContext {
        let awakeCount = sets.awake.count
        let h = dt / Float(substeps)
        let invH = 1 / h
        let contactHertz = min(def.contactHertz, 0.125 * invH)
        let jointHertz = min(def.jointHertz, max(0.01, def.jointHertzLimit) * invH)
        return StepContext(
            dt: dt, substeps: substeps, h: h, invH: invH,
            softness: Softness(hertz: contactHertz, zeta: def.contactDampingRatio, h: h),
            staticSoftness: Softness(hertz: 2 * contactHertz, zeta: def.contactDampingRatio, h: h),
            joint: JointContext(h: h, invH: invH, jointSoftness: Softness(hertz: jointHertz, zeta: def.jointDampingRatio, h: h)),
            bodies: bodies.base, shapes: shapes.base,
            contacts: contacts.base, contactSlots: contacts.count,
            joints: joints.base, jointSlots: joints.count,
            awakeCount: awakeCount,
            states: scratch.states.reserve(
                count: StepContext.stateCount(awake: awakeCount, threads: pool.threadCount)),
            sims: scratch.sims.reserve(count: awakeCount + 1))
    }
}
