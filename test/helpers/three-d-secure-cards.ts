/**
 * The sandbox authentication service's test cards (docs/sandbox.md, "3-D Secure"): the 4th and 3rd digits from
 * the end choose the authentication's outcome, the last digit stays the sale's (1: approved), the 2nd from the end
 * makes the number Luhn-valid. Written out here, not read from the sandbox, so a change there fails the tests.
 */
export type ThreeDSecureScenario = 'frictionless' | 'challenge' | 'failure' | 'unenrolled' | 'attempted' | 'error';

export interface ThreeDSecureCard {
  brand: 'Visa' | 'Master' | 'Elo' | 'Amex' | 'Hipercard';
  scenario: ThreeDSecureScenario | 'unsupported brand';
  number: string;
  /** The service's answer: the script's callback is on + its capitalised name (onSuccess...). */
  status: 'success' | 'challenge' | 'failure' | 'unenrolled' | 'error' | 'unsupportedBrand';
  eci?: string;
}

const ROWS: [ThreeDSecureCard['brand'], string[], { authenticated: string; attempted: string; not: string }][] = [
  [
    'Visa',
    [
      '4000000000000051',
      '4000000000000101',
      '4000000000000291',
      '4000000000000341',
      '4000000000000481',
      '4000000000000531',
    ],
    { authenticated: '05', attempted: '06', not: '07' },
  ],
  [
    'Master',
    [
      '5100000000000081',
      '5100000000000131',
      '5100000000000271',
      '5100000000000321',
      '5100000000000461',
      '5100000000000511',
    ],
    { authenticated: '02', attempted: '01', not: '00' },
  ],
  [
    'Elo',
    [
      '6362970000000011',
      '6362970000000151',
      '6362970000000201',
      '6362970000000391',
      '6362970000000441',
      '6362970000000581',
    ],
    { authenticated: '05', attempted: '06', not: '07' },
  ],
  [
    'Amex',
    ['340000000000041', '340000000000181', '340000000000231', '340000000000371', '340000000000421', '340000000000561'],
    { authenticated: '05', attempted: '06', not: '07' },
  ],
];

export const THREE_D_SECURE_CARDS: ThreeDSecureCard[] = [
  ...ROWS.flatMap(([brand, [frictionless, challenge, failure, unenrolled, attempted, error], eci]) => [
    { brand, scenario: 'frictionless', number: frictionless, status: 'success', eci: eci.authenticated } as const,
    { brand, scenario: 'challenge', number: challenge, status: 'challenge' } as const,
    { brand, scenario: 'failure', number: failure, status: 'failure', eci: eci.not } as const,
    { brand, scenario: 'unenrolled', number: unenrolled, status: 'unenrolled', eci: eci.not } as const,
    { brand, scenario: 'attempted', number: attempted, status: 'success', eci: eci.attempted } as const,
    { brand, scenario: 'error', number: error, status: 'error' } as const,
  ]),
  { brand: 'Hipercard', scenario: 'unsupported brand', number: '6062820000000011', status: 'unsupportedBrand' },
];

/** The code the sandbox's challenge page takes. */
export const CHALLENGE_CODE = '1234';
