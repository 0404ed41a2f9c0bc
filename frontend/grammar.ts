/**
 * The ohm-js grammar of the C dialect rely reads: full C declaration syntax (so glibc
 * headers in `.i` files parse), statements and expressions. What rely cannot model is
 * rejected later, during lowering, and only where it is actually used. The parser
 * (./parse/statements.ts) reads function bodies by recursive descent and matches
 * expressions, declarations and function heads here; the statement rules serve GNU
 * statement expressions `({ … })` and the wording of syntax errors (parse.ts).
 *
 * C's typedef ambiguity (`T * x;`) is resolved before matching: the parser marks
 * each token that is a typedef name of the file by replacing its first character with
 * TYPEDEF_MARK (the text keeps its length, so positions stay right), and `typedefName`
 * matches the mark. A per-file rule listing the names instead would cost every
 * identifier a try of every name: 50,000 typedefs in a header would take minutes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as ohm from 'ohm-js';

export const C_GRAMMAR = String.raw`
C {
  TranslationUnit = ExternalDecl*
  ExternalDecl = FunctionDef | Declaration | ";" -- empty

  FunctionDef = DeclSpecs Declarator CompoundStmt
  // A function definition's head; the parser reads its body (./parse/statements.ts).
  FunctionHead = DeclSpecs Declarator

  Declaration = staticAssert "(" balancedBody ")" ";"  -- static_assert
              | DeclSpecs ListOf<InitDeclarator, ","> ";"  -- decl

  DeclSpecs = DeclSpec+
  DeclSpec = StorageClass | AtomicSpec | TypeQualifier | FunctionSpec | Attribute | TypeSpec
  AtomicSpec = "_Atomic" #(~identPart) "(" TypeName ")"
  StorageClass = "typedef" #(~identPart) | "extern" #(~identPart) | "static" #(~identPart) | "auto" #(~identPart) | "register" #(~identPart) | "_Thread_local" #(~identPart) | "__thread" #(~identPart)
  TypeQualifier = "const" #(~identPart) | "volatile" #(~identPart) | "restrict" #(~identPart) | "__restrict__" #(~identPart) | "__restrict" #(~identPart) | "_Atomic" #(~identPart) | "__const" #(~identPart) | "__volatile__" #(~identPart) | "_Nonnull" #(~identPart) | "_Nullable" #(~identPart)
  FunctionSpec = "inline" #(~identPart) | "__inline__" #(~identPart) | "__inline" #(~identPart) | "_Noreturn" #(~identPart) | "__extension__" #(~identPart)
  Attribute = ("__attribute__" #(~identPart) | "__attribute" #(~identPart)) "(" balancedBody ")"  -- attr
            | ("__asm__" #(~identPart) | "__asm" #(~identPart) | "asm" #(~identPart)) "(" balancedBody ")"  -- asm
            | "__declspec" #(~identPart) "(" balancedBody ")"  -- declspec
            | "_Alignas" #(~identPart) "(" balancedBody ")"  -- alignas
  TypeSpec = "void" #(~identPart) | "char" #(~identPart) | "short" #(~identPart) | "int" #(~identPart) | "long" #(~identPart) | "float" #(~identPart) | "double" #(~identPart)
           | "signed" #(~identPart) | "__signed__" #(~identPart) | "unsigned" #(~identPart) | "_Bool" #(~identPart) | "_Complex" #(~identPart) | "__int128" #(~identPart) | "__builtin_va_list" #(~identPart)
           | "_Float128" #(~identPart) | "__float128" #(~identPart) | "_Float64" #(~identPart) | "_Float32" #(~identPart) | "_Float32x" #(~identPart) | "_Float64x" #(~identPart)
           | StructSpec | EnumSpec | TypeofSpec | TypedefName
  TypeofSpec = ("__typeof__" #(~identPart) | "__typeof" #(~identPart) | "typeof" #(~identPart)) "(" balancedBody ")"
  TypedefName = typedefName

  // A tag may be spelled like a typedef name: glibc declares union pthread_attr_t
  // beside typedef union pthread_attr_t pthread_attr_t.
  StructSpec = structOrUnion Attribute* Tag? "{" StructDecl* "}"  -- def
             | structOrUnion Attribute* Tag  -- ref
  Tag = ident | TypedefName
  structOrUnion = "struct" #(~identPart) | "union" #(~identPart)
  StructDecl = SpecQual+ ListOf<StructDeclarator, ","> ";"  -- fields
             | staticAssert "(" balancedBody ")" ";"  -- static_assert
             | ";"  -- empty
  StructDeclarator = Declarator? ":" CondExpr  -- bits
                   | Declarator
  SpecQual = AtomicSpec | TypeQualifier | Attribute | TypeSpec
  EnumSpec = "enum" #(~identPart) Attribute* Tag? "{" ListOf<Enumerator, ","> ","? "}"  -- def
           | "enum" #(~identPart) Attribute* Tag  -- ref
  Enumerator = ident Attribute* ("=" CondExpr)?

  Declarator = Pointer* DirectDeclarator Attribute*
  Pointer = "*" (TypeQualifier | Attribute)*
  DirectDeclarator = DirectBase DeclSuffix*
  DirectBase = ident  -- name
             | "(" Attribute* Declarator ")"  -- paren
  DeclSuffix = "[" ArrayQual* AssignExpr? "]"  -- array
             | "(" ParamList ")"  -- params
             | "(" ")"  -- noparams
  ArrayQual = TypeQualifier | "static" #(~identPart)
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
  LabeledStmt = "case" #(~identPart) CondExpr ":" Stmt  -- case
              | "default" #(~identPart) ":" Stmt  -- default
              | ident ":" ~":" Attribute* LabelTarget  -- label
  LabelTarget = Stmt  -- stmt
              | &"}"  -- end
  CompoundStmt = "{" BlockItem* "}"
  BlockItem = Declaration | Stmt
  IfStmt = "if" #(~identPart) "(" Expr ")" Stmt ("else" #(~identPart) Stmt)?
  SwitchStmt = "switch" #(~identPart) "(" Expr ")" Stmt
  WhileStmt = "while" #(~identPart) "(" Expr ")" Stmt
  DoStmt = "do" #(~identPart) Stmt "while" #(~identPart) "(" Expr ")" ";"
  ForStmt = "for" #(~identPart) "(" ForInit Expr? ";" Expr? ")" Stmt
  ForInit = Declaration  -- decl
          | Expr? ";"  -- expr
  GotoStmt = "goto" #(~identPart) ident ";"
  ContinueStmt = "continue" #(~identPart) ";"
  BreakStmt = "break" #(~identPart) ";"
  ReturnStmt = "return" #(~identPart) Expr? ";"
  AsmStmt = ("__asm__" #(~identPart) | "__asm" #(~identPart) | "asm" #(~identPart)) TypeQualifier* "(" balancedBody ")" ";"
  ExprStmt = Expr? ";"

  // ---- expressions
  Expr = NonemptyListOf<AssignExpr, ",">
  AssignExpr = UnaryExpr assignOp AssignExpr  -- assign
             | CondExpr
  assignOp = "=" ~"=" | "+=" | "-=" | "*=" | "/=" | "%=" | "<<=" | ">>=" | "&=" | "^=" | "|="
  CondExpr = BinaryExpr "?" Expr ":" CondExpr  -- cond
           | BinaryExpr
  // Every binary operator at one level, by iteration; the semantics groups the operands
  // by C's precedence. A rule per precedence level made each operand go through ten
  // nested rule applications (most of the time spent matching an expression), and left
  // recursion made a sum of n terms take time quadratic in n.
  BinaryExpr = CastExpr (binaryOp CastExpr)*
  binaryOp = "||" | "&&" | bitOrOp | bitXorOp | bitAndOp | eqOp | relOp | shiftOp | addOp | mulOp
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
            | "sizeof" #(~identPart) "(" TypeName ")"  -- sizeoftype
            | "sizeof" #(~identPart) UnaryExpr  -- sizeofexpr
            | ("_Alignof" #(~identPart) | "__alignof__" #(~identPart)) "(" TypeName ")"  -- alignof
            | "__extension__" #(~identPart) CastExpr  -- ext
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
              | "__builtin_offsetof" #(~identPart) "(" balancedBody ")"  -- offsetof
              | "__builtin_va_arg" #(~identPart) "(" balancedBody ")"  -- vaarg

  // ---- lexical
  // A keyword is written "word" #(~identPart) (lexical: no space may come between the word
  // and the check). A parameterized rule kw<word> did the same, but ohm-js builds a string
  // key for every application of a rule with arguments: a fifth of a declaration's time.
  staticAssert = "_Static_assert" #(~identPart) | "static_assert" #(~identPart)
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
 * to the compiled module takes ~15 ms. The recipe functions are not in ohm-js's type
 * declarations, but its public API has no other way to keep a compiled grammar, and
 * every `rely` process (and test) would pay the compile. The recipe carries a hash of the grammar text
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
