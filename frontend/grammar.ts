/**
 * The ohm-js grammar of the C dialect rely reads: full C declaration syntax (so glibc
 * headers in `.i` files parse), statements and expressions. What rely cannot model is
 * rejected later, during lowering, and only where it is actually used.
 *
 * C's typedef ambiguity (`T * x;`) is resolved before matching: the parser marks
 * each token that is a typedef name of the file by replacing its first character with
 * TYPEDEF_MARK (the text keeps its length, so positions stay right), and `typedefName`
 * matches the mark. A per-file rule listing the names instead cost every identifier a
 * try of every name: 50,000 typedefs in a header took minutes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as ohm from 'ohm-js';

export const C_GRAMMAR = String.raw`
C {
  TranslationUnit = ExternalDecl*
  ExternalDecl = FunctionDef | Declaration | ";" -- empty

  FunctionDef = DeclSpecs Declarator CompoundStmt

  Declaration = staticAssert "(" balancedBody ")" ";"  -- static_assert
              | DeclSpecs ListOf<InitDeclarator, ","> ";"  -- decl

  DeclSpecs = DeclSpec+
  DeclSpec = StorageClass | AtomicSpec | TypeQualifier | FunctionSpec | Attribute | TypeSpec
  AtomicSpec = kw<"_Atomic"> "(" TypeName ")"
  StorageClass = kw<"typedef"> | kw<"extern"> | kw<"static"> | kw<"auto"> | kw<"register"> | kw<"_Thread_local"> | kw<"__thread">
  TypeQualifier = kw<"const"> | kw<"volatile"> | kw<"restrict"> | kw<"__restrict__"> | kw<"__restrict"> | kw<"_Atomic"> | kw<"__const"> | kw<"__volatile__"> | kw<"_Nonnull"> | kw<"_Nullable">
  FunctionSpec = kw<"inline"> | kw<"__inline__"> | kw<"__inline"> | kw<"_Noreturn"> | kw<"__extension__">
  Attribute = (kw<"__attribute__"> | kw<"__attribute">) "(" balancedBody ")"  -- attr
            | (kw<"__asm__"> | kw<"__asm"> | kw<"asm">) "(" balancedBody ")"  -- asm
            | kw<"__declspec"> "(" balancedBody ")"  -- declspec
            | kw<"_Alignas"> "(" balancedBody ")"  -- alignas
  TypeSpec = kw<"void"> | kw<"char"> | kw<"short"> | kw<"int"> | kw<"long"> | kw<"float"> | kw<"double">
           | kw<"signed"> | kw<"__signed__"> | kw<"unsigned"> | kw<"_Bool"> | kw<"_Complex"> | kw<"__int128"> | kw<"__builtin_va_list">
           | kw<"_Float128"> | kw<"__float128"> | kw<"_Float64"> | kw<"_Float32"> | kw<"_Float32x"> | kw<"_Float64x">
           | StructSpec | EnumSpec | TypeofSpec | TypedefName
  TypeofSpec = (kw<"__typeof__"> | kw<"__typeof"> | kw<"typeof">) "(" balancedBody ")"
  TypedefName = typedefName

  // A tag may be spelled like a typedef name: glibc declares union pthread_attr_t
  // beside typedef union pthread_attr_t pthread_attr_t.
  StructSpec = structOrUnion Attribute* Tag? "{" StructDecl* "}"  -- def
             | structOrUnion Attribute* Tag  -- ref
  Tag = ident | TypedefName
  structOrUnion = kw<"struct"> | kw<"union">
  StructDecl = SpecQual+ ListOf<StructDeclarator, ","> ";"  -- fields
             | staticAssert "(" balancedBody ")" ";"  -- static_assert
             | ";"  -- empty
  StructDeclarator = Declarator? ":" CondExpr  -- bits
                   | Declarator
  SpecQual = AtomicSpec | TypeQualifier | Attribute | TypeSpec
  EnumSpec = kw<"enum"> Attribute* Tag? "{" ListOf<Enumerator, ","> ","? "}"  -- def
           | kw<"enum"> Attribute* Tag  -- ref
  Enumerator = ident Attribute* ("=" CondExpr)?

  Declarator = Pointer* DirectDeclarator Attribute*
  Pointer = "*" (TypeQualifier | Attribute)*
  DirectDeclarator = DirectBase DeclSuffix*
  DirectBase = ident  -- name
             | "(" Attribute* Declarator ")"  -- paren
  DeclSuffix = "[" ArrayQual* AssignExpr? "]"  -- array
             | "(" ParamList ")"  -- params
             | "(" ")"  -- noparams
  ArrayQual = TypeQualifier | kw<"static">
  ParamList = NonemptyListOf<ParamDecl, ","> ("," "...")?
  ParamDecl = DeclSpecs Declarator  -- named
            | DeclSpecs AbstractDeclarator?  -- abstract
  AbstractDeclarator = Pointer+ DirectAbstract?  -- ptr
                     | DirectAbstract
  DirectAbstract = "(" Attribute* AbstractDeclarator ")" DeclSuffix*  -- paren
                 | DeclSuffix+  -- suffixes
  InitDeclarator = Declarator Attribute* ("=" Initializer)?
  Initializer = "{" ListOf<InitItem, ","> ","? "}"  -- braces
              | AssignExpr
  InitItem = Designator* "=" Initializer  -- designated
           | Initializer
  Designator = "[" CondExpr "]"  -- index
             | "." ident  -- field
  TypeName = SpecQual+ AbstractDeclarator?

  // ---- statements
  Stmt = LabeledStmt | CompoundStmt | IfStmt | SwitchStmt | WhileStmt | DoStmt | ForStmt
       | GotoStmt | ContinueStmt | BreakStmt | ReturnStmt | AsmStmt | ExprStmt
  LabeledStmt = kw<"case"> CondExpr ":" Stmt  -- case
              | kw<"default"> ":" Stmt  -- default
              | ident ":" ~":" Attribute* LabelTarget  -- label
  LabelTarget = Stmt  -- stmt
              | &"}"  -- end
  CompoundStmt = "{" BlockItem* "}"
  BlockItem = Declaration | Stmt
  IfStmt = kw<"if"> "(" Expr ")" Stmt (kw<"else"> Stmt)?
  SwitchStmt = kw<"switch"> "(" Expr ")" Stmt
  WhileStmt = kw<"while"> "(" Expr ")" Stmt
  DoStmt = kw<"do"> Stmt kw<"while"> "(" Expr ")" ";"
  ForStmt = kw<"for"> "(" ForInit Expr? ";" Expr? ")" Stmt
  ForInit = Declaration  -- decl
          | Expr? ";"  -- expr
  GotoStmt = kw<"goto"> ident ";"
  ContinueStmt = kw<"continue"> ";"
  BreakStmt = kw<"break"> ";"
  ReturnStmt = kw<"return"> Expr? ";"
  AsmStmt = (kw<"__asm__"> | kw<"__asm"> | kw<"asm">) TypeQualifier* "(" balancedBody ")" ";"
  ExprStmt = Expr? ";"

  // ---- expressions
  Expr = NonemptyListOf<AssignExpr, ",">
  AssignExpr = UnaryExpr assignOp AssignExpr  -- assign
             | CondExpr
  assignOp = "=" ~"=" | "+=" | "-=" | "*=" | "/=" | "%=" | "<<=" | ">>=" | "&=" | "^=" | "|="
  CondExpr = LogOr "?" Expr ":" CondExpr  -- cond
           | LogOr
  // Binary and postfix operators by iteration, not left recursion: ohm-js grows a
  // left-recursive rule's seed at a cost that made a sum of n terms take time
  // quadratic in n, and made every operand pay for the cycle checks.
  LogOr = LogAnd ("||" LogAnd)*
  LogAnd = BitOr ("&&" BitOr)*
  BitOr = BitXor (bitOrOp BitXor)*
  BitXor = BitAnd (bitXorOp BitAnd)*
  BitAnd = EqExpr (bitAndOp EqExpr)*
  EqExpr = RelExpr (eqOp RelExpr)*
  RelExpr = ShiftExpr (relOp ShiftExpr)*
  ShiftExpr = AddExpr (shiftOp AddExpr)*
  AddExpr = MulExpr (addOp MulExpr)*
  MulExpr = CastExpr (mulOp CastExpr)*
  bitOrOp = "|" ~("|" | "=")
  bitXorOp = "^" ~"="
  bitAndOp = "&" ~("&" | "=")
  eqOp = "==" | "!="
  relOp = "<=" | ">=" | "<" ~("<" | "=") | ">" ~(">" | "=")
  shiftOp = ("<<" | ">>") ~"="
  addOp = "+" ~("+" | "=") | "-" ~("-" | "=" | ">")
  mulOp = ("*" | "/" | "%") ~"="

  CastExpr = "(" TypeName ")" CastExpr  -- cast
           | UnaryExpr
  UnaryExpr = "++" UnaryExpr  -- preinc
            | "--" UnaryExpr  -- predec
            | unaryOp CastExpr  -- op
            | kw<"sizeof"> "(" TypeName ")"  -- sizeoftype
            | kw<"sizeof"> UnaryExpr  -- sizeofexpr
            | (kw<"_Alignof"> | kw<"__alignof__">) "(" TypeName ")"  -- alignof
            | kw<"__extension__"> CastExpr  -- ext
            | PostfixExpr
  unaryOp = "&" ~"&" | "*" | "+" ~"+" | "-" ~"-" | "~" | "!" ~"="
  PostfixExpr = PostfixBase PostfixOp*
  PostfixBase = "(" TypeName ")" "{" ListOf<InitItem, ","> ","? "}"  -- compound
              | PrimaryExpr
  PostfixOp = "[" Expr "]"  -- index
            | "(" ListOf<AssignExpr, ","> ")"  -- call
            | "." ident  -- member
            | "->" ident  -- arrow
            | "++"  -- postinc
            | "--"  -- postdec
  PrimaryExpr = ident  -- ident
              | number  -- number
              | charLit  -- char
              | stringLit+  -- string
              | "(" CompoundStmt ")"  -- stmtexpr
              | "(" Expr ")"  -- paren
              | kw<"__builtin_offsetof"> "(" balancedBody ")"  -- offsetof
              | kw<"__builtin_va_arg"> "(" balancedBody ")"  -- vaarg

  // ---- lexical
  kw<word> = word ~identPart
  staticAssert = kw<"_Static_assert"> | kw<"static_assert">
  balancedBody = (balancedParens | ~("(" | ")") any)*
  balancedParens = "(" balancedBody ")"
  keyword = ("auto" | "break" | "case" | "char" | "const" | "continue" | "default" | "double" | "do"
            | "else" | "enum" | "extern" | "float" | "for" | "goto" | "if" | "inline" | "int" | "long"
            | "register" | "restrict" | "return" | "short" | "signed" | "sizeof" | "static" | "struct"
            | "switch" | "typedef" | "union" | "unsigned" | "void" | "volatile" | "while" | "_Bool"
            | "_Static_assert" | "__attribute__" | "__attribute" | "__extension__" | "__asm__" | "__asm"
            | "__inline__" | "__inline" | "__restrict__" | "__restrict" | "__typeof__" | "__typeof"
            | "__const" | "_Noreturn" | "_Atomic" | "_Alignas" | "_Alignof" | "_Thread_local" | "__thread") ~identPart
  ident = ~keyword identStart identPart*
  identStart = letter | "_" | "$"
  identPart = alnum | "_" | "$"
  typedefName = "\uE000" identPart*
  number = digit (alnum | "." | "_")*  -- int
         | "." digit (alnum | ".")*  -- frac
  charLit = "'" (escape | ~"'" any)+ "'"
  stringLit = "\"" (escape | ~"\"" any)* "\""
  escape = "\\" any
}
`;

/** Replaces the first character of a typedef name's token in the text matched (see above): not a character of C, nor one ohm-js skips as a space (those are U+0000 to U+0020). */
export const TYPEDEF_MARK = '\uE000';

let base: ohm.Grammar | undefined;

/**
 * Compiling the grammar takes ~300 ms; loading the recipe `npm run build` writes next
 * to the compiled module takes ~15 ms. The recipe carries a hash of the grammar text
 * and is ignored when it does not match (the grammar is then compiled).
 */
const RECIPE = new URL('./c-grammar.recipe.json', import.meta.url);
// Both are part of ohm-js's runtime API but missing from its type declarations.
const makeRecipe = (ohm as unknown as { makeRecipe(recipe: unknown): ohm.Grammar }).makeRecipe;
const toRecipe = (g: ohm.Grammar): string => (g as unknown as { toRecipe(): string }).toRecipe();

export const grammarHash = (): string => createHash('sha256').update(C_GRAMMAR).digest('hex');

/** The C grammar. */
export function cGrammar(): ohm.Grammar {
  if (!base) {
    const saved = existsSync(RECIPE) ? (JSON.parse(readFileSync(RECIPE, 'utf8')) as { hash: string; recipe: unknown }) : undefined;
    base = saved?.hash === grammarHash() ? makeRecipe(saved.recipe) : ohm.grammar(C_GRAMMAR);
  }
  return base;
}

/** Writes the recipe of the compiled grammar (run by `npm run build`). */
export function writeRecipe(): void {
  const recipe = JSON.parse(toRecipe(ohm.grammar(C_GRAMMAR))) as unknown;
  writeFileSync(RECIPE, JSON.stringify({ hash: grammarHash(), recipe }));
}
