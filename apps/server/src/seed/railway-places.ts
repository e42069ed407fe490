import type { CountryAreaName } from '@railwatt/contracts';

/**
 * Real railway places of each country for the demo data: main stations, border stations (with the
 * neighbour they face), main lines between stations, and where freight trains are weighed.
 * Coordinates are WGS 84 [lat, lon] of the station, rounded.
 */
export interface RailwayPlaces {
  stations: Record<string, readonly [number, number]>;
  /** Border stations: the station, the neighbouring country, the station across the border. */
  borders: readonly { station: string; towards: string; across: string }[];
  /** Main lines: name, line number, from and to station, length in km. */
  lines: readonly { name: string; number: string; from: string; to: string; km: number }[];
  /** Stations with a weighbridge / wheel-load checkpoint. */
  payloadPoints: readonly string[];
}

export const RAILWAY_PLACES: Record<CountryAreaName, RailwayPlaces> = {
  norway: {
    stations: {
      'Oslo S': [59.911, 10.753],
      Bergen: [60.39, 5.333],
      'Trondheim S': [63.436, 10.399],
      Stavanger: [58.967, 5.733],
      Narvik: [68.44, 17.427],
      Kristiansand: [58.145, 7.996],
      Magnor: [59.96, 12.23],
      Kornsjø: [58.95, 11.65],
      Storlien: [63.32, 12.1],
      Bjørnfjell: [68.43, 18.07],
      Alnabru: [59.933, 10.84],
    },
    borders: [
      { station: 'Magnor', towards: 'Sweden', across: 'Charlottenberg' },
      { station: 'Kornsjø', towards: 'Sweden', across: 'Ed' },
      { station: 'Storlien', towards: 'Sweden', across: 'Storlien' },
      { station: 'Bjørnfjell', towards: 'Sweden', across: 'Riksgränsen' },
    ],
    lines: [
      { name: 'Dovrebanen', number: 'NO-DOV', from: 'Oslo S', to: 'Trondheim S', km: 553 },
      { name: 'Bergensbanen', number: 'NO-BER', from: 'Oslo S', to: 'Bergen', km: 496 },
      { name: 'Sørlandsbanen', number: 'NO-SOR', from: 'Oslo S', to: 'Stavanger', km: 547 },
      { name: 'Ofotbanen', number: 'NO-OFO', from: 'Narvik', to: 'Bjørnfjell', km: 43 },
      { name: 'Kongsvingerbanen', number: 'NO-KOB', from: 'Oslo S', to: 'Magnor', km: 135 },
    ],
    payloadPoints: ['Narvik', 'Alnabru'],
  },
  sweden: {
    stations: {
      'Stockholm C': [59.33, 18.059],
      'Göteborg C': [57.709, 11.973],
      'Malmö C': [55.609, 13.001],
      Luleå: [65.585, 22.155],
      'Sundsvall C': [62.389, 17.307],
      Borlänge: [60.486, 15.437],
      Charlottenberg: [59.886, 12.296],
      Storlien: [63.316, 12.099],
      Riksgränsen: [68.428, 18.126],
      Haparanda: [65.835, 24.137],
      Hyllie: [55.563, 12.975],
      Hallsberg: [59.067, 15.11],
    },
    borders: [
      { station: 'Charlottenberg', towards: 'Norway', across: 'Magnor' },
      { station: 'Storlien', towards: 'Norway', across: 'Storlien' },
      { station: 'Riksgränsen', towards: 'Norway', across: 'Bjørnfjell' },
      { station: 'Haparanda', towards: 'Finland', across: 'Tornio' },
      { station: 'Hyllie', towards: 'Denmark', across: 'Peberholm' },
    ],
    lines: [
      { name: 'Västra stambanan', number: 'SE-VSB', from: 'Stockholm C', to: 'Göteborg C', km: 455 },
      { name: 'Södra stambanan', number: 'SE-SSB', from: 'Stockholm C', to: 'Malmö C', km: 614 },
      { name: 'Malmbanan', number: 'SE-MAL', from: 'Luleå', to: 'Riksgränsen', km: 473 },
      { name: 'Ostkustbanan', number: 'SE-OKB', from: 'Stockholm C', to: 'Sundsvall C', km: 402 },
      { name: 'Värmlandsbanan', number: 'SE-VRB', from: 'Hallsberg', to: 'Charlottenberg', km: 242 },
    ],
    payloadPoints: ['Hallsberg', 'Luleå'],
  },
  denmark: {
    stations: {
      'København H': [55.673, 12.565],
      'Aarhus H': [56.15, 10.204],
      Odense: [55.402, 10.387],
      Aalborg: [57.043, 9.917],
      Fredericia: [55.573, 9.752],
      Padborg: [54.826, 9.364],
      Peberholm: [55.608, 12.75],
      Rødby: [54.66, 11.35],
    },
    borders: [
      { station: 'Padborg', towards: 'Germany', across: 'Flensburg' },
      { station: 'Peberholm', towards: 'Sweden', across: 'Hyllie' },
      { station: 'Rødby', towards: 'Germany', across: 'Puttgarden' },
    ],
    lines: [
      { name: 'Vestbanen', number: 'DK-VES', from: 'København H', to: 'Fredericia', km: 220 },
      { name: 'Østjyske længdebane', number: 'DK-OJL', from: 'Fredericia', to: 'Aalborg', km: 196 },
      { name: 'Sønderjyske længdebane', number: 'DK-SJL', from: 'Fredericia', to: 'Padborg', km: 91 },
      { name: 'Øresundsbanen', number: 'DK-ORE', from: 'København H', to: 'Peberholm', km: 14 },
    ],
    payloadPoints: ['Padborg'],
  },
  switzerland: {
    stations: {
      'Zürich HB': [47.378, 8.54],
      Bern: [46.949, 7.439],
      'Basel SBB': [47.548, 7.59],
      Lausanne: [46.517, 6.629],
      Chiasso: [45.833, 9.031],
      Brig: [46.319, 7.988],
      'Genève-Cornavin': [46.21, 6.142],
      'Buchs SG': [47.168, 9.478],
      Erstfeld: [46.822, 8.651],
    },
    borders: [
      { station: 'Basel SBB', towards: 'France and Germany', across: 'Saint-Louis / Basel Bad Bf' },
      { station: 'Chiasso', towards: 'Italy', across: 'Como San Giovanni' },
      { station: 'Brig', towards: 'Italy', across: 'Domodossola' },
      { station: 'Genève-Cornavin', towards: 'France', across: 'La Plaine / Annemasse' },
      { station: 'Buchs SG', towards: 'Austria', across: 'Feldkirch' },
    ],
    lines: [
      { name: 'Zürich - Bern', number: 'CH-650', from: 'Zürich HB', to: 'Bern', km: 125 },
      { name: 'Gotthardbahn', number: 'CH-600', from: 'Basel SBB', to: 'Chiasso', km: 303 },
      { name: 'Simplonlinie', number: 'CH-100', from: 'Lausanne', to: 'Brig', km: 145 },
      { name: 'Genf - Lausanne', number: 'CH-150', from: 'Genève-Cornavin', to: 'Lausanne', km: 60 },
    ],
    payloadPoints: ['Erstfeld', 'Basel SBB'],
  },
  belgium: {
    stations: {
      'Bruxelles-Midi': [50.836, 4.336],
      'Antwerpen-Centraal': [51.217, 4.421],
      'Gent-Sint-Pieters': [51.036, 3.71],
      'Liège-Guillemins': [50.625, 5.567],
      Namur: [50.469, 4.863],
      Montzen: [50.708, 5.96],
      Quévy: [50.357, 3.938],
      Essen: [51.462, 4.468],
      Athus: [49.56, 5.83],
    },
    borders: [
      { station: 'Montzen', towards: 'Germany', across: 'Aachen West' },
      { station: 'Quévy', towards: 'France', across: 'Aulnoye-Aymeries' },
      { station: 'Essen', towards: 'Netherlands', across: 'Roosendaal' },
      { station: 'Athus', towards: 'Luxembourg', across: 'Rodange' },
    ],
    lines: [
      { name: 'L25 Bruxelles - Antwerpen', number: 'L25', from: 'Bruxelles-Midi', to: 'Antwerpen-Centraal', km: 44 },
      { name: 'L96 Bruxelles - Quévy', number: 'L96', from: 'Bruxelles-Midi', to: 'Quévy', km: 64 },
      { name: 'L24 Montzenroute', number: 'L24', from: 'Liège-Guillemins', to: 'Montzen', km: 40 },
      { name: 'L50A Bruxelles - Gent', number: 'L50A', from: 'Bruxelles-Midi', to: 'Gent-Sint-Pieters', km: 56 },
    ],
    payloadPoints: ['Montzen'],
  },
  spain: {
    stations: {
      'Madrid Atocha': [40.407, -3.689],
      'Barcelona Sants': [41.379, 2.14],
      'Sevilla Santa Justa': [37.392, -5.976],
      'València Nord': [39.467, -0.377],
      'Zaragoza Delicias': [41.659, -0.911],
      Irun: [43.339, -1.791],
      Portbou: [42.427, 3.158],
      'Figueres Vilafant': [42.267, 2.944],
      Badajoz: [38.886, -6.984],
      'Fuentes de Oñoro': [40.591, -6.817],
    },
    borders: [
      { station: 'Irun', towards: 'France', across: 'Hendaye' },
      { station: 'Portbou', towards: 'France', across: 'Cerbère' },
      { station: 'Figueres Vilafant', towards: 'France', across: 'Perpignan' },
      { station: 'Badajoz', towards: 'Portugal', across: 'Elvas' },
      { station: 'Fuentes de Oñoro', towards: 'Portugal', across: 'Vilar Formoso' },
    ],
    lines: [
      { name: 'LAV Madrid - Barcelona', number: 'ES-050', from: 'Madrid Atocha', to: 'Barcelona Sants', km: 621 },
      { name: 'LAV Madrid - Sevilla', number: 'ES-010', from: 'Madrid Atocha', to: 'Sevilla Santa Justa', km: 471 },
      { name: 'Madrid - Hendaya', number: 'ES-100', from: 'Madrid Atocha', to: 'Irun', km: 641 },
      { name: 'Corredor Mediterráneo', number: 'ES-600', from: 'València Nord', to: 'Barcelona Sants', km: 350 },
    ],
    payloadPoints: ['Zaragoza Delicias'],
  },
  portugal: {
    stations: {
      'Lisboa Santa Apolónia': [38.714, -9.123],
      'Porto Campanhã': [41.149, -8.585],
      'Coimbra-B': [40.224, -8.438],
      Faro: [37.019, -7.94],
      Entroncamento: [39.466, -8.469],
      'Vilar Formoso': [40.615, -6.834],
      Elvas: [38.879, -7.163],
      Valença: [42.027, -8.643],
    },
    borders: [
      { station: 'Vilar Formoso', towards: 'Spain', across: 'Fuentes de Oñoro' },
      { station: 'Elvas', towards: 'Spain', across: 'Badajoz' },
      { station: 'Valença', towards: 'Spain', across: 'Tui' },
    ],
    lines: [
      { name: 'Linha do Norte', number: 'PT-NOR', from: 'Lisboa Santa Apolónia', to: 'Porto Campanhã', km: 337 },
      { name: 'Linha da Beira Alta', number: 'PT-BAL', from: 'Coimbra-B', to: 'Vilar Formoso', km: 202 },
      { name: 'Linha do Minho', number: 'PT-MIN', from: 'Porto Campanhã', to: 'Valença', km: 134 },
      { name: 'Linha do Sul', number: 'PT-SUL', from: 'Lisboa Santa Apolónia', to: 'Faro', km: 300 },
    ],
    payloadPoints: ['Entroncamento'],
  },
  netherlands: {
    stations: {
      'Amsterdam Centraal': [52.379, 4.9],
      'Utrecht Centraal': [52.089, 5.11],
      'Rotterdam Centraal': [51.925, 4.469],
      Eindhoven: [51.443, 5.481],
      Zwolle: [52.505, 6.091],
      Venlo: [51.365, 6.172],
      Oldenzaal: [52.311, 6.928],
      Zevenaar: [51.926, 6.071],
      Roosendaal: [51.541, 4.459],
      Kijfhoek: [51.833, 4.6],
    },
    borders: [
      { station: 'Venlo', towards: 'Germany', across: 'Kaldenkirchen' },
      { station: 'Oldenzaal', towards: 'Germany', across: 'Bad Bentheim' },
      { station: 'Zevenaar', towards: 'Germany', across: 'Emmerich' },
      { station: 'Roosendaal', towards: 'Belgium', across: 'Essen' },
    ],
    lines: [
      { name: 'Amsterdam - Eindhoven', number: 'NL-AE', from: 'Amsterdam Centraal', to: 'Eindhoven', km: 126 },
      { name: 'Betuweroute', number: 'NL-BR', from: 'Kijfhoek', to: 'Zevenaar', km: 160 },
      { name: 'Rotterdam - Roosendaal', number: 'NL-RR', from: 'Rotterdam Centraal', to: 'Roosendaal', km: 57 },
      { name: 'Brabantroute', number: 'NL-BB', from: 'Eindhoven', to: 'Venlo', km: 57 },
    ],
    payloadPoints: ['Kijfhoek'],
  },
  finland: {
    stations: {
      Helsinki: [60.172, 24.941],
      Tampere: [61.498, 23.774],
      Oulu: [65.011, 25.483],
      Kouvola: [60.868, 26.704],
      Turku: [60.454, 22.252],
      Tornio: [65.848, 24.154],
      Vainikkala: [60.861, 28.309],
    },
    borders: [
      { station: 'Tornio', towards: 'Sweden', across: 'Haparanda' },
      { station: 'Vainikkala', towards: 'Russia', across: 'Luzhaika' },
    ],
    lines: [
      { name: 'Päärata', number: 'FI-001', from: 'Helsinki', to: 'Oulu', km: 680 },
      { name: 'Rantarata', number: 'FI-002', from: 'Helsinki', to: 'Turku', km: 193 },
      { name: 'Kouvola - Vainikkala', number: 'FI-003', from: 'Kouvola', to: 'Vainikkala', km: 80 },
      { name: 'Tornio - Oulu', number: 'FI-004', from: 'Oulu', to: 'Tornio', km: 131 },
    ],
    payloadPoints: ['Kouvola'],
  },
};
