// Type-level comparison used by scripts/track/declarations.mjs: `Report<Official, Ours>` is `never`
// when the two types are the same (structurally: aliases expanded, intersections flattened,
// deeply), and otherwise an object type saying how they differ, which tsc prints in its error
// message when the report is passed where `never` is expected.

type Norm<T> =
  T extends (...args: infer A) => infer R ? (...args: { [K in keyof A]: Norm<A[K]> }) => Norm<R>
    : T extends Promise<infer U> ? Promise<Norm<U>>
      : T extends object ? { [K in keyof T]: Norm<T[K]> }
        : T
export type Same<A, B> = (<G>() => G extends Norm<A> ? 1 : 2) extends (<G>() => G extends Norm<B> ? 1 : 2) ? true : false

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never
/** Keys without index signatures. */
type Known<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: 1 }
type Optional<T, K extends keyof T> = {} extends Pick<T, K> ? true : false
type Shared<A, B> = Known<A> & Known<B>
/** Shared keys whose types (optionality aside) differ. */
type DifferingKeys<A, B> = Shared<A, B> extends infer K ? K extends keyof A & keyof B ? (Same<Exclude<A[K], undefined>, Exclude<B[K], undefined>> extends true ? never : K) : never : never
/** Shared keys optional on one side only. */
type OptionalityKeys<A, B> = Shared<A, B> extends infer K ? K extends keyof A & keyof B ? (Optional<A, K> extends Optional<B, K> ? never : K) : never : never
type Eval<T> = T extends infer U ? U : never
type Len<T> = T extends { length: infer L } ? L : never
/** Indexes of a parameter list whose types differ. */
type DifferingParameters<A extends readonly unknown[], B extends readonly unknown[]> = Eval<{ [I in keyof A]: I extends keyof B ? (Same<A[I], B[I]> extends true ? never : I) : I }[number]>
/** Members of the union A with no identical member in B. */
export type Unmatched<A, B> = A extends unknown ? (true extends (B extends unknown ? Same<A, B> : never) ? never : A) : never

// For the members, parameters and return values that differ, their types as tsc names them (a
// pair, official first): a pair printed the same whose names include a differing exported type is
// explained by that type's own report.
export type Report<A, B> = Same<A, B> extends true ? never
  : [A, B] extends [readonly (infer EA)[], readonly (infer EB)[]] ? { kind: 'list'; onlyOfficial: Unmatched<EA, EB>; onlyOurs: Unmatched<EB, EA>; lengths: [Len<A>, Len<B>]; official: A; ours: B }
    : true extends IsUnion<A> | IsUnion<B> ? { kind: 'union'; onlyOfficial: Unmatched<A, B>; onlyOurs: Unmatched<B, A> }
      : [A, B] extends [PromiseLike<unknown>, PromiseLike<unknown>] ? { kind: 'promise' }
      : [A, B] extends [(...a: infer PA) => infer RA, (...a: infer PB) => infer RB]
        ? { kind: 'function'; parameters: DifferingParameters<PA, PB>; lengths: [Len<PA>, Len<PB>]; returns: Same<RA, RB>
            parameterTypes: { [I in DifferingParameters<PA, PB> & keyof PA & keyof PB]: [PA[I], PB[I]] }; returnTypes: [RA, RB] }
        : [A, B] extends [object, object]
          // With an index signature on both sides (a record), whether their values are the same too.
          ? string extends keyof A & keyof B ? { kind: 'object'; values: Same<A[string & keyof A], B[string & keyof B]>; missing: Eval<Exclude<Known<A>, Known<B>>>; extra: Eval<Exclude<Known<B>, Known<A>>>; differs: DifferingKeys<A, B>; optionality: OptionalityKeys<A, B>; types: { [K in DifferingKeys<A, B> & keyof A & keyof B]: [A[K], B[K]] } }
            : { kind: 'object'; values: true; missing: Eval<Exclude<Known<A>, Known<B>>>; extra: Eval<Exclude<Known<B>, Known<A>>>; differs: DifferingKeys<A, B>; optionality: OptionalityKeys<A, B>; types: { [K in DifferingKeys<A, B> & keyof A & keyof B]: [A[K], B[K]] } }
          : { kind: 'other'; official: A; ours: B }
